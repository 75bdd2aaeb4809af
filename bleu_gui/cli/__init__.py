"""The command line: ``bleu-score`` (:mod:`.bleu_score`) and the flags it shares with ``bleu-gui``
(:mod:`.arguments`). Only the core is used here."""
