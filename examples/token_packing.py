"""pack/unpack of token groups: image and text tokens must agree on the feature axis."""
from einops import pack, rearrange, unpack
from jaxtyping import Float
from torch import Tensor


def fuse(img: Float[Tensor, "b 256 h w"], text: Float[Tensor, "b n 512"]):
    img_tokens = rearrange(img, "b c h w -> b (h w) c")
    tokens, ps = pack([img_tokens, text], "b * c")
    return unpack(tokens, ps, "b * c")
