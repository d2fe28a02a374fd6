"""Distillation: the teacher's map is (b, t1, t2, h), the student's (b, h, t1, t2)."""
import torch.nn.functional as F
from einops import rearrange
from jaxtyping import Float
from torch import Tensor


def distill_loss(teacher: Float[Tensor, "b t1 t2 h"], student: Float[Tensor, "b h t1 t2"]):
    return F.mse_loss(student, teacher)  # runs whenever h == t1 == t2, and compares the wrong elements


def distill_loss_fixed(teacher: Float[Tensor, "b t1 t2 h"], student: Float[Tensor, "b h t1 t2"]):
    return F.mse_loss(student, rearrange(teacher, "b t1 t2 h -> b h t1 t2"))
