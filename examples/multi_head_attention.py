"""Multi-head attention helpers: a 500-wide model does not split into 8 heads."""
from einops import einsum, rearrange
from jaxtyping import Float
from torch import Tensor


def split_heads(x, heads):
    return rearrange(x, "b n (h d) -> b h n d", h=heads)


def merge_heads(x):
    return rearrange(x, "b h n d -> b n (h d)")


def self_attention(x: Float[Tensor, "b n 512"]) -> Float[Tensor, "b n 512"]:
    q = k = v = split_heads(x, 8)
    scores = einsum(q, k, "b h i d, b h j d -> b h i j").softmax(dim=-1)
    return merge_heads(einsum(scores, v, "b h i j, b h j d -> b h i d"))


def narrow_model(x: Float[Tensor, "b n 500"]):
    return merge_heads(split_heads(x, 8))
