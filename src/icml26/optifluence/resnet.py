"""Bottleneck residual networks for 32x32 images, the paper's transfer targets: ResNet-50 (He et al., 2016;
``blocks = (3, 4, 6, 3)``, width 64) and WideResNet-50-2 (Zagoruyko & Komodakis, 2016: the same with every
bottleneck twice as wide, ``widen = 2``).

The layout is torchvision's ``ResNet`` with ``Bottleneck`` blocks (stride on the 3x3 conv, expansion 4, a 1x1
projection where the shape changes) and the CIFAR stem: one 3x3 conv at stride 1 and no max-pool, as CIFAR
training recipes use, where the ImageNet stem would shrink a 32x32 image to 8x8 before the first stage. Written
here because torchvision's wheel cannot be installed beside this project's CPU torch (its compiled operators fail
to register); normalisation is GroupNorm (:mod:`.norm`).
"""

from torch import Tensor, nn

from .norm import norm

EXPANSION = 4


class Bottleneck(nn.Module):
    def __init__(self, into: int, planes: int, stride: int, widen: int):
        super().__init__()
        inner, out = planes * widen, planes * EXPANSION
        self.body = nn.Sequential(
            nn.Conv2d(into, inner, 1, bias=False),
            norm(inner),
            nn.ReLU(),
            nn.Conv2d(inner, inner, 3, stride=stride, padding=1, bias=False),
            norm(inner),
            nn.ReLU(),
            nn.Conv2d(inner, out, 1, bias=False),
            norm(out),
        )
        self.shortcut = (
            nn.Sequential(nn.Conv2d(into, out, 1, stride=stride, bias=False), norm(out))
            if stride != 1 or into != out
            else nn.Identity()
        )

    def forward(self, x: Tensor) -> Tensor:
        return nn.functional.relu(self.body(x) + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(
        self, channels: int, classes: int, width: int = 64, blocks: tuple[int, ...] = (3, 4, 6, 3), widen: int = 1
    ):
        super().__init__()
        layers = [nn.Conv2d(channels, width, 3, padding=1, bias=False), norm(width), nn.ReLU()]
        into = width
        for stage, count in enumerate(blocks):
            planes = width * 2**stage
            for i in range(count):
                layers.append(Bottleneck(into, planes, 2 if stage and not i else 1, widen))
                into = planes * EXPANSION
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(into, classes)

    def features(self, x: Tensor) -> Tensor:
        batch = x.shape[:-3]
        return self.body(x.reshape(-1, *x.shape[-3:])).mean(dim=(-2, -1)).reshape(*batch, -1)

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.features(x))
