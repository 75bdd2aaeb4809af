"""The open corpus scored under every tokenizer × case: how much the number owes to tokenization.

Each cell is a full corpus score with its own evaluator and signature, so a
cell equals what sacreBLEU prints with that ``-tok`` and ``-lc``. The flores
tokenizers are left out: they fetch a model at run time. A tokenizer whose
optional extra is missing is reported as unavailable, never scored with a
stand-in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import ConfigError
from ..json_text import strict_dumps
from ..metrics.bleu.config import BleuConfig
from ..metrics.bleu.metric import Bleu, scaled_progress
from ..metrics.sacre_tokenizers import load_tokenizer
from ..text_tables import latex_escape, to_csv

TABLE_TOKENIZERS = ("13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "none")
Setting = tuple[str, bool]  # (tokenizer, lowercase)


@dataclass(frozen=True)
class TokenizerTable:
    """Corpus scores per setting and system; ``current`` is the run's own setting."""

    systems: list[str]
    settings: list[Setting]
    scores: dict[Setting, list[float]]
    signatures: dict[Setting, str]
    current: Setting
    unavailable: dict[str, str]  # tokenizer -> why it could not be loaded

    def delta(self, setting: Setting, system: int) -> float:
        """The cell's score minus the score of the same system under the run's setting."""
        return self.scores[setting][system] - self.scores[self.current][system]

    def ranking(self, setting: Setting) -> list[int]:
        """System indices best first under ``setting``."""
        return sorted(range(len(self.systems)), key=lambda i: -self.scores[setting][i])

    def flips(self, a: int, b: int) -> list[Setting]:
        """Settings under which the better of systems ``a`` and ``b`` is not the one under the run's setting."""
        def sign(setting: Setting) -> int:
            d = self.scores[setting][a] - self.scores[setting][b]
            return (d > 0) - (d < 0)

        now = sign(self.current)
        return [s for s in self.settings if sign(s) != now]

    def records(self) -> list[dict[str, object]]:
        """One object per cell: ``tokenizer``, ``lowercase``, ``system``, ``score``, ``signature``."""
        return [{"tokenizer": tok, "lowercase": lc, "system": name, "score": self.scores[(tok, lc)][i],
                 "signature": self.signatures[(tok, lc)]}
                for tok, lc in self.settings for i, name in enumerate(self.systems)]

    def to_json(self) -> str:
        return strict_dumps(self.records(), indent=2)

    def to_csv(self) -> str:
        header = ["tokenizer", "lowercase", "system", "score", "delta", "signature"]
        rows = [[tok, lc, name, self.scores[(tok, lc)][i], self.delta((tok, lc), i), self.signatures[(tok, lc)]]
                for tok, lc in self.settings for i, name in enumerate(self.systems)]
        return to_csv(header, rows)

    def to_latex(self, width: int = 2) -> str:
        """A booktabs table: one row per setting, one column per system, the run's setting marked."""
        cols = "ll" + "r" * len(self.systems)
        lines = [f"\\begin{{tabular}}{{{cols}}}", "\\toprule",
                 " & ".join(["tokenizer", "case", *map(latex_escape, self.systems)]) + r" \\", "\\midrule"]
        for tok, lc in self.settings:
            mark = "$^\\ast$" if (tok, lc) == self.current else ""
            cells = [f"{s:.{width}f}" for s in self.scores[(tok, lc)]]
            lines.append(" & ".join([latex_escape(tok) + mark, "lc" if lc else "cased", *cells]) + r" \\")
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"

    def to_text(self, width: int = 2) -> str:
        """The table for a terminal: scores with Δ to the run's setting, then the signatures."""
        names = self.systems
        head = ["tokenizer", "case", *names]
        rows = []
        for setting in self.settings:
            cells = [f"{s:.{width}f}" + ("" if setting == self.current else f" ({self.delta(setting, i):+.{width}f})")
                     for i, s in enumerate(self.scores[setting])]
            rows.append([setting[0] + (" *" if setting == self.current else ""), "lc" if setting[1] else "cased",
                         *cells])
        widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
        out = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows]]
        out += ["", "* the current setting; (±) is the change from it.", "", "Signatures:"]
        out += [f"  {tok} {'lc' if lc else 'cased'}: {self.signatures[(tok, lc)]}" for tok, lc in self.settings]
        out += [f"  {tok}: not available ({why})" for tok, why in self.unavailable.items()]
        return "\n".join(out) + "\n"


def available_tokenizers(names: Sequence[str] = TABLE_TOKENIZERS) -> tuple[list[str], dict[str, str]]:
    """The tokenizers that load here, and why the others do not."""
    ok, missing = [], {}
    for name in names:
        try:
            load_tokenizer(name)
            ok.append(name)
        except ConfigError as exc:
            missing[name] = str(exc)
    return ok, missing


@dataclass(frozen=True)
class ScoredAlready:
    """The systems as the run scored them: their names, lines and corpus BLEU under ``config``, and its signature
    (that row of the table is not scored again)."""

    names: Sequence[str]
    lines: Sequence[Sequence[str]]
    scores: Sequence[float]
    signature: str
    config: BleuConfig


def tokenizer_table(systems: ScoredAlready, references: Sequence[Sequence[str]],
                    progress: Callable[[float], None] | None = None,
                    tokenizers: Sequence[str] = TABLE_TOKENIZERS) -> TokenizerTable:
    """Score every system under each available tokenizer, cased and lowercased, against ``references``.

    ``progress(fraction)`` may raise to stop.
    """
    names, unavailable = available_tokenizers(tokenizers)
    settings = [(tok, lc) for tok in names for lc in (False, True)]
    current = (systems.config.tokenizer_name, systems.config.lowercase)
    if current not in settings:
        settings.insert(0, current)
    scores: dict[Setting, list[float]] = {}
    signatures: dict[Setting, str] = {}
    for k, (tok, lc) in enumerate(settings):
        if (tok, lc) == current:  # the run's own numbers: scored already with these settings
            scores[current] = list(systems.scores)
            signatures[current] = systems.signature
            continue
        part = scaled_progress(progress, k / len(settings), 1 / len(settings))
        config = dataclasses.replace(systems.config, tokenizer=tok, lowercase=lc)
        evaluator = Bleu(references, config, progress=scaled_progress(part, 0.0, 0.3))
        row = []
        for i, lines in enumerate(systems.lines):
            step = 0.7 / len(systems.lines)
            stats = evaluator.statistics(lines, scaled_progress(part, 0.3 + i * step, step))
            row.append(evaluator.corpus_score(stats).score)
        scores[(tok, lc)] = row
        signatures[(tok, lc)] = evaluator.signature()
    return TokenizerTable(list(systems.names), settings, scores, signatures, current, unavailable)
