"""Which words move a run's neural score on one segment (:mod:`..analysis.erasure`): the candidate's and the
source's words erased one at a time through the metric's own model (COMET's worker, its cache), said in words with
what the other witnesses say of the same words — xCOMET's spans, an LLM judge's, the raters'."""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.erasure import Erasure, ScoreVariants, Segment, Tokenize, Word, erase, erase_all
from ..inputs.ratings import TARGET, ErrorSpan
from ..metrics.base import Progress
from ..metrics.sacre_tokenizers import load_tokenizer
from ..metrics.scripts import cjk_script
from .results import Run

# Tokenizers whose pieces are words where the script writes no spaces; another tokenizer (13a, spm) splits words
# into pieces, and the words are then the whitespace ones.
WORD_TOKENIZERS = ("ja-mecab", "ko-mecab", "zh")
# Without BLEU in the run: the tokenizer sacreBLEU takes for the declared target language.
BY_LANGUAGE = {"ja": "ja-mecab", "ko": "ko-mecab", "zh": "zh"}


def _splitting_name(name: str, language: str, texts: Sequence[Sequence[str]]) -> str:
    """Tokenizer ``name`` where it makes words of a script without spaces; else the one sacreBLEU takes for
    ``language``; else the one for the script ``texts`` are mostly written in; else whitespace."""
    if name not in WORD_TOKENIZERS:
        name = BY_LANGUAGE.get(language, "")
    if name not in WORD_TOKENIZERS:
        found = cjk_script(texts)
        name = found[1] if found is not None else ""
    return name if name in WORD_TOKENIZERS else "whitespace"


def _with_tokenizer(name: str) -> tuple[str, Tokenize | None]:
    return name, (load_tokenizer(name) if name in WORD_TOKENIZERS else None)


def splitting_name(run: Run) -> str:
    """The name of :func:`word_splitting`'s splitting (no tokenizer loaded)."""
    bleu = run.bleu
    texts = [r.lines for r in run.references] or [s.lines for s in run.systems[:1]]
    return _splitting_name(bleu.config.tokenizer_name if bleu is not None else "", run.context.target_language, texts)


def source_splitting_name(run: Run) -> str:
    """The name of :func:`source_word_splitting`'s splitting (no tokenizer loaded)."""
    languages, source = run.context.languages, run.context.source
    return _splitting_name("", languages[0] if languages is not None else "",
                           [source.lines] if source is not None else [])


def word_splitting(run: Run) -> tuple[str, Tokenize | None]:
    """How the run splits a candidate into words: its BLEU tokenizer where that makes words of a script without
    spaces (Japanese, Chinese, Korean); else the one sacreBLEU takes for the declared target language; else the one
    for the script the references (without them, the candidates) are mostly written in; else whitespace — and its
    name, said on screen."""
    return _with_tokenizer(splitting_name(run))


def source_word_splitting(run: Run) -> tuple[str, Tokenize | None]:
    """How the run splits its source into words: by the declared source language, else by the script the source is
    mostly written in (a Chinese source of a zh-en run is split by sacreBLEU's zh, whatever the target's)."""
    return _with_tokenizer(source_splitting_name(run))


def splitting_fields(run: Run) -> dict[str, str]:
    """The word splittings by name, as the JSON output gives them."""
    return {"word_splitting": splitting_name(run), "source_word_splitting": source_splitting_name(run)}


def words_said(run: Run) -> str:
    """The word splitting as the screen says it: the candidate's, and the source's where it differs (by name: the
    window's title loads no tokenizer on its thread)."""
    target, source = splitting_name(run), source_splitting_name(run)
    has_source = run.context.source is not None
    return f"words by {target}" + (f", the source's by {source}" if has_source and source != target else "")


def explains_by_erasure(run: Run, k: int) -> bool:
    """Whether the run's ``k``-th metric scores variants of a segment through its model (COMET)."""
    return run.metrics[k].scores_variants


def _scorer(run: Run, k: int, progress: Progress | None = None) -> ScoreVariants:
    metric = run.metrics[k]

    def score(variants: Sequence[Segment]) -> list[float]:
        found = metric.score_variants(variants, progress)
        assert found is not None  # explains_by_erasure
        return found
    return score


def segment_erasure(run: Run, k: int, system: int, i: int, progress: Progress | None = None) -> list[Erasure]:
    """The candidate's erasure and, where the metric reads a source, the source's, for segment ``i`` of
    ``system`` under the run's ``k``-th metric (``progress`` may raise to cancel: the model's work stops)."""
    source = run.context.source.lines[i] if run.context.source is not None else ""
    segment = (i, source, run.systems[system].lines[i])
    _name, tokenize = word_splitting(run)
    found = [erase("target", segment, _scorer(run, k, progress), tokenize)]
    if source.strip():
        found.append(erase("source", segment, _scorer(run, k, progress), source_word_splitting(run)[1]))
    return found


def corpus_erasure(run: Run, k: int, system: int, rows: Sequence[int] | None = None,
                   progress: Progress | None = None) -> list[tuple[int, Erasure]]:
    """The candidate's erasure on every segment ``rows`` (all) of ``system`` under the run's ``k``-th metric, in one
    request to the model (its cache keeps what a cancel cut short): what :func:`..analysis.erasure.held_against`
    reads."""
    rows = list(range(run.n_sentences)) if rows is None else list(rows)
    source = run.context.source.lines if run.context.source is not None else None
    segments = [(i, source[i] if source is not None else "", run.systems[system].lines[i]) for i in rows]
    _name, tokenize = word_splitting(run)
    return list(zip(rows, erase_all("target", segments, _scorer(run, k, progress), tokenize)))


def witnesses(run: Run, system: int, i: int) -> list[tuple[str, list[ErrorSpan]]]:
    """Who else marked the candidate's words: each metric with spans (xCOMET, the LLM judge) and the raters."""
    found = []
    lines = run.systems[system].lines
    for metric in run.metrics:
        spans = metric.error_spans(lines)
        if spans is not None and i < len(spans) and spans[i] is not None:
            found.append((metric.name, [e for e in spans[i] or () if e.side == TARGET and e.start is not None]))
    annotations = run.systems[system].file.annotations
    ratings = annotations[i] if annotations is not None and i < len(annotations) else None
    if ratings is not None:
        for rater in ratings.raters:
            found.append((f"rater {rater}", [e for e in ratings.errors if e.rater == rater and e.side == TARGET
                                             and e.start is not None]))
    return found


def _inside(word: Word, spans: Sequence[ErrorSpan]) -> ErrorSpan | None:
    return next((e for e in spans if e.start is not None and e.end is not None and e.start < word.end
                 and word.start < e.end), None)


def in_words(run: Run, k: int, system: int, i: int, found: Sequence[Erasure], decimals: int) -> list[str]:
    """The erasure said: the words that pull the score down most and by how much, the source words whose removal
    raises it (where the metric reads one), and how many of those words the other witnesses marked too."""
    metric = run.metrics[k]
    lines = [f"{metric.name} {found[0].score:.{decimals}f}; each word left out and the segment scored again by the "
             f"model ({len(found[0].words) + 1} texts, {words_said(run)})"]
    for erasure in found:
        against = erasure.against()
        side = "candidate" if erasure.side == "target" else "source"
        if not erasure.words:
            lines.append(f"the {side} has no word to leave out")
            continue
        if not against:
            lines.append(f"no {side} word pulls it down: leaving out any lowers the score or leaves it as it is")
            continue
        said = ", ".join(f"“{w.text}” {w.delta:+.{decimals}f}" for w in against)
        what = "that pull it down most (left out, the score rises)" if erasure.side == "target" else \
            "whose removal raises it (what the candidate may leave out)"
        lines.append(f"{side} words {what}: {said}")
        if erasure.side == "target":
            for name, spans in witnesses(run, system, i):
                hit = [(w, e) for w in against if (e := _inside(w, spans)) is not None]
                lines.append(f"{len(hit)} of the {len(against)} lie in {name}'s spans"
                             + (": " + ", ".join(f"“{w.text}” in a {e.severity} {e.category or 'span'}".rstrip()
                                                for w, e in hit) if hit else ""))
    return lines
