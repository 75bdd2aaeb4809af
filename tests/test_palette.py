"""The twenty system colours stay distinct in normal vision and for the three kinds of colour blindness."""

import numpy as np
import pytest

from bleu_gui.core import palette

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}


def linear_rgb(hexes):
    c = np.array([[int(h[i:i + 2], 16) for i in (1, 3, 5)] for h in hexes], float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(lin):
    xyz = lin @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_twenty_system_colours_are_distinct(vision):
    assert len(palette.SYSTEMS) == 20 and len(set(palette.SYSTEMS)) == 20
    seen = lab(np.clip(linear_rgb(palette.SYSTEMS) @ SIMULATIONS[vision].T, 0, 1))
    distance = np.sqrt(((seen[:, None] - seen[None]) ** 2).sum(-1))
    np.fill_diagonal(distance, np.inf)
    assert distance.min() >= 9.5, vision


def test_system_colours_are_visible_on_white():
    lightness = lab(linear_rgb(palette.SYSTEMS))[:, 0]
    assert lightness.max() < 85


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_colours_that_share_a_marker_shape_are_far_apart(vision):
    """Shape is the second channel: two systems of one shape differ clearly in colour, for every reader (blue, sky
    blue and light cyan were all circles)."""
    from bleu_gui.gui.compare.system_legend import SHAPES, colour_of, shape_of

    seen = lab(np.clip(linear_rgb(palette.SYSTEMS) @ SIMULATIONS[vision].T, 0, 1))
    for shape in SHAPES:
        same = [i for i in range(20) if shape_of(i) == shape]
        assert len([i for i in same if i < 15]) == 3  # fifteen systems: each shape three times
        for a in same:
            for b in same:
                if a < b:
                    assert np.sqrt(((seen[a] - seen[b]) ** 2).sum()) >= 23, (vision, colour_of(a), colour_of(b))
    assert len({(colour_of(i), shape_of(i)) for i in range(20)}) == 20
    assert len({shape_of(i) for i in range(5)}) == 5  # two to five systems: each its own shape too
