"""bleu-gui: see why a machine translation gets its BLEU score."""

__version__ = "0.1.0"
