"""``python -m bleu_gui.cli``: the ``bleu-score`` command."""

from .bleu_score import main

main()
