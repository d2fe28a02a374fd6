"""core.with_roomy_frames: calls reserve room for the analysis's Python frames (see core._roomy_call). What it saves
(mmap/munmap of frame chunks, system time) is measured in benchmarks/README.md; here: that it is a plain call."""

import sys

import pytest

from shapecheck import core


def _depth(n: int) -> int:
    return 0 if n == 0 else 1 + _depth(n - 1)


def test_returns_the_result_and_keeps_recursion_working() -> None:
    # deep enough to leave the reserved room (4 MB of frame slots) no matter how small each frame is
    assert core.with_roomy_frames(_depth, 900) == 900


def test_nested_calls_reserve_once_and_the_flag_is_reset() -> None:
    seen: list[bool] = []

    def inner() -> str:
        seen.append(getattr(core._roomy, "active", False))
        return core.with_roomy_frames(lambda: "inner")

    assert core.with_roomy_frames(inner) == "inner"
    assert seen == [core._RESERVES]
    assert getattr(core._roomy, "active", False) is False


def test_exceptions_propagate_and_reset_the_flag() -> None:
    def boom() -> None:
        raise ValueError("x")

    with pytest.raises(ValueError):
        core.with_roomy_frames(boom)
    assert getattr(core._roomy, "active", False) is False


def test_each_thread_reserves_its_own_room() -> None:
    import threading

    seen: list[bool] = []

    def other_thread() -> None:
        seen.append(getattr(core._roomy, "active", False))  # the main thread's frame is not on this stack

    def outer() -> None:
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()

    core.with_roomy_frames(outer)
    assert seen == [False]


def test_reserves_only_where_frames_live_in_chunks() -> None:
    assert core._RESERVES == ((3, 11) <= sys.version_info[:2] < (3, 15))
    size = core._roomy_call.__code__.co_stacksize
    assert (size >= 1 << 19) == core._RESERVES


def test_check_source_runs_inside_the_reserved_room() -> None:
    src = 'from einops import rearrange\nimport torch\nx = torch.zeros(2, 3)\ny = rearrange(x, "a b c -> a b c")\n'
    assert [(f.code, f.line) for f in core.check_source(src, "t.py")] == [("SHP201", 4)]
