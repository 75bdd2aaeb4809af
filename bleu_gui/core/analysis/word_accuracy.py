"""Word accuracy by frequency, as compare-mt's word accuracy analysis (Neubig et al. 2019, ``FreqWordBucketer``):
which kinds of words — rare or frequent in the reference (or in a corpus) — a system gets right.

Reference words are put in buckets by how often they occur (<1, 1, 2, 3, 4, [5,10), [10,100), [100,1000),
>=1000). In each sentence an output word matches the next unmatched occurrence of the same word in the
reference; a word of the output takes the bucket of its own frequency. Per bucket: matched output words,
reference words, output words; recall = matched/reference, precision = matched/output, F-measure; all three
are 0 when nothing matched (compare-mt's convention). One reference: the first (compare-mt takes one).

Per-sentence counts sum over a corpus, so a bootstrap over sentences gives each bucket's interval.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics.sacre_tokenizers import load_tokenizer

CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def bucket_labels(cutoffs: Sequence[int] = CUTOFFS) -> list[str]:
    """compare-mt's names of the buckets: ``<1``, ``1``, …, ``[5,10)``, …, ``>=1000``."""
    labels = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{x}")
        elif x - 1 == cutoffs[i - 1]:
            labels.append(f"{x - 1}")
        else:
            labels.append(f"[{cutoffs[i - 1]},{x})")
    labels.append(f">={cutoffs[-1]}")
    return labels


def frequency_counts(sentences: Sequence[Sequence[str]], lowercase: bool = False) -> Counter[str]:
    """How often each word occurs in tokenized ``sentences`` (lowercased with ``lowercase``)."""
    counts: Counter[str] = Counter()
    for words in sentences:
        counts.update(w.lower() for w in words) if lowercase else counts.update(words)
    return counts


def _bucket(count: int, cutoffs: Sequence[int]) -> int:
    for i, v in enumerate(cutoffs):
        if count < v:
            return i
    return len(cutoffs)


@dataclass(frozen=True)
class WordAccuracy:
    """Per sentence and bucket: reference words (sentences × buckets), and per system output words and matched
    output words (systems × sentences × buckets); each bucket's reference words and where they occur."""

    labels: list[str]
    reference: np.ndarray
    output: np.ndarray
    matched: np.ndarray
    occurrences: dict[str, list[int]]  # a reference word -> the sentences it occurs in
    frequency: dict[str, int]          # a reference word -> its count in the frequency source
    bucket_of: dict[str, int]

    def words(self, bucket: int) -> list[str]:
        """The reference words of a bucket, most frequent first (then by the word)."""
        found = [w for w in self.occurrences if self.bucket_of[w] == bucket]
        return sorted(found, key=lambda w: (-self.frequency[w], w))

    def totals(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(matched: systems × buckets, reference: buckets, output: systems × buckets) over ``rows`` (all)."""
        pick = slice(None) if rows is None else rows
        return self.matched[:, pick].sum(axis=1), self.reference[pick].sum(axis=0), self.output[:, pick].sum(axis=1)

    def measures(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(recall, precision, F-measure), systems × buckets, as compare-mt computes them."""
        matched, reference, output = self.totals(rows)
        with np.errstate(divide="ignore", invalid="ignore"):
            recall = np.where(matched > 0, matched / np.maximum(reference[None, :], 1), 0.0)
            precision = np.where(matched > 0, matched / np.maximum(output, 1), 0.0)
            fmeas = np.where(matched > 0, 2 * precision * recall / np.where(matched > 0, precision + recall, 1), 0.0)
        return recall, precision, fmeas

    def intervals(self, n: int = 1000, seed: int = 12345) -> tuple[np.ndarray, np.ndarray]:
        """The 2.5th and 97.5th percentile of each bucket's F-measure over ``n`` bootstrap resamples of the
        sentences (systems × buckets each)."""
        rng = np.random.default_rng(seed)
        sentences = self.reference.shape[0]
        draws = rng.integers(0, sentences, size=(n, sentences))
        samples = np.stack([self.measures(rows)[2] for rows in draws])
        return np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)


def word_accuracy(reference: Sequence[Sequence[str]], systems: Sequence[Sequence[Sequence[str]]],
                  counts: Counter[str], lowercase: bool = False,
                  cutoffs: Sequence[int] = CUTOFFS) -> WordAccuracy:
    """Word accuracy of each system's tokenized sentences against the tokenized reference (see the module);
    ``counts``: word frequencies (the reference's or a corpus's, lowercased with ``lowercase``)."""
    k, n, buckets = len(systems), len(reference), len(cutoffs) + 1
    ref_total = np.zeros((n, buckets), np.int64)
    out_total = np.zeros((k, n, buckets), np.int64)
    matched = np.zeros((k, n, buckets), np.int64)
    bucket_of: dict[str, int] = {}  # each word's bucket, worked out once
    occurrences: dict[str, list[int]] = {}

    def bucket(word: str) -> int:
        b = bucket_of.get(word)
        if b is None:
            b = bucket_of[word] = _bucket(counts.get(word, 0), cutoffs)
        return b

    for i, ref_words in enumerate(reference):
        ref = [w.lower() for w in ref_words] if lowercase else list(ref_words)
        available: Counter[str] = Counter(ref)
        for w in ref:
            ref_total[i, bucket(w)] += 1
            seen = occurrences.setdefault(w, [])
            if not seen or seen[-1] != i:
                seen.append(i)
        for s in range(k):
            left = available.copy()
            for w in systems[s][i]:
                word = w.lower() if lowercase else w
                b = bucket(word)
                out_total[s, i, b] += 1
                if left[word] > 0:
                    left[word] -= 1
                    matched[s, i, b] += 1
    return WordAccuracy(bucket_labels(cutoffs), ref_total, out_total, matched, occurrences,
                        {w: counts.get(w, 0) for w in occurrences}, bucket_of)


def compare_mt_words(line: str) -> list[str]:
    """A tokenized line's words as compare-mt reads a file of them (``corpus_utils.iterate_tokens``): split at each
    ASCII space after stripping the line, so U+3000 and no-break spaces stay inside words, and an empty line or a
    double space gives an empty word, as compare-mt counts them."""
    return line.strip().split(" ")


def word_accuracy_of_lines(reference: Sequence[str], systems: Sequence[Sequence[str]], tokenizer: str = "13a",
                           lowercase: bool = False, corpus: Sequence[str] | None = None) -> WordAccuracy:
    """Word accuracy of systems' lines against reference lines, on the words of sacreBLEU's ``tokenizer`` as
    compare-mt reads a file of them (:func:`compare_mt_words`; with ``none``, the lines as they are); frequencies
    from ``corpus`` lines (default: the reference's)."""
    tokenize = load_tokenizer(tokenizer)

    def words(lines: Sequence[str]) -> list[list[str]]:
        return [compare_mt_words(tokenize(line)) for line in lines]

    ref = words(reference)
    counts = frequency_counts(words(corpus) if corpus is not None else ref, lowercase)
    return word_accuracy(ref, [words(lines) for lines in systems], counts, lowercase)
