"""ViT patch embedding: a 225-pixel image does not split into 16-pixel patches."""
import torch.nn as nn
from einops import rearrange
from einops.layers.torch import Rearrange
from jaxtyping import Float
from torch import Tensor


def patchify(img: Float[Tensor, "b 3 225 225"]) -> Float[Tensor, "b n 768"]:
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)


class PatchEmbed(nn.Module):
    def __init__(self, dim: int = 512):
        super().__init__()
        self.proj = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16),
            nn.Linear(512, dim),  # 16 * 16 * 3 = 768 features arrive here
        )

    def forward(self, img: Float[Tensor, "b 3 224 224"]) -> Float[Tensor, "b 196 dim"]:
        return self.proj(img)
