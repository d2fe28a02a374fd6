import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# Property tests draw the same examples on every run in CI (a failure there is reproducible, never a new random seed),
# and keep no example database between runs. Locally the default profile applies unless a test pins its own settings
# (most do: derandomize=True); `--hypothesis-profile=ci` selects this one by hand.
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
