"""ResNet-9, the paper's CIFAR-10 model: the residual network of Page's DAWNBench entry ("How to train your
ResNet", 2018), widths ``w, 2w, 4w, 8w`` with ``w = 64``.

prep (3x3 conv, w) -> layer 1 (conv 2w, 2x2 max-pool, one residual pair of convs) -> layer 2 (conv 4w, pool)
-> layer 3 (conv 8w, pool, residual pair) -> global max-pool -> linear head, its logits scaled by 1/8 as the
original's. Every conv is 3x3 without bias, followed by the normalisation (GroupNorm here: :mod:`.norm`) and ReLU.
``features`` is the head's input (IF-Init's last layer).
"""

from torch import Tensor, nn

from .norm import norm


def conv_block(into: int, out: int, pool: bool = False) -> nn.Sequential:
    layers = [nn.Conv2d(into, out, 3, padding=1, bias=False), norm(out), nn.ReLU()]
    return nn.Sequential(*layers, nn.MaxPool2d(2)) if pool else nn.Sequential(*layers)


class Residual(nn.Module):
    """``x + f(x)`` with ``f`` two conv blocks of the same width."""

    def __init__(self, width: int):
        super().__init__()
        self.body = nn.Sequential(conv_block(width, width), conv_block(width, width))

    def forward(self, x: Tensor) -> Tensor:
        return x + self.body(x)


class ResNet9(nn.Module):
    LOGIT_SCALE = 0.125

    def __init__(self, channels: int, classes: int, width: int = 64):
        super().__init__()
        self.body = nn.Sequential(
            conv_block(channels, width),
            conv_block(width, 2 * width, pool=True),
            Residual(2 * width),
            conv_block(2 * width, 4 * width, pool=True),
            conv_block(4 * width, 8 * width, pool=True),
            Residual(8 * width),
        )
        self.head = nn.Linear(8 * width, classes)

    def features(self, x: Tensor) -> Tensor:
        batch = x.shape[:-3]
        out = self.body(x.reshape(-1, *x.shape[-3:]))
        return out.amax(dim=(-2, -1)).reshape(*batch, -1)

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.features(x)) * self.LOGIT_SCALE
