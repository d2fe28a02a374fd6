"""Mixed precision: a float16 sum over a 224x224 feature map overflows to inf."""
from einops import reduce
from jaxtyping import Float16
from torch import Tensor


def pooled_energy(features: Float16[Tensor, "b c 224 224"]):
    return reduce(features, "b c h w -> b c", "sum")


def pooled_energy_safe(features: Float16[Tensor, "b c 224 224"]):
    return reduce(features.float(), "b c h w -> b c", "sum").to(features.dtype)
