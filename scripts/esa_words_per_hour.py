"""Source words an ESA rater reads in an hour, from the times in WMT24's ESA release: the default of ``bleu-score
--ask-humans --words-per-hour`` (the campaign's estimate of hours).

    python scripts/esa_words_per_hour.py [../shared/data/esa-wmt24-en-zh-en-hi/wmt24-genmt-humeval.jsonl]

WMT's ``humeval/compute_words_per_hour.py`` measures the same way: per rater, the ratings in the order they were
started, the time from one start to the next (gaps of 10 minutes or more left out: a break), and the source words of
the segment rated in that time (whitespace-separated, each system's translation counted apart, as the rater reads
the source again for it). A rater's rate is their words over their time; printed: the raters' median (the default),
their mean, and all the words over all the time.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "esa-wmt24-en-zh-en-hi" / "wmt24-genmt-humeval.jsonl"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    started: dict[tuple[str, str], list[tuple[float, int]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        segment = json.loads(line)
        pair = str(segment["doc_id"]).split("_#_")[0]
        words = len(segment["src_text"].split())
        for ratings in segment["scores"].values():
            for rating in ratings:
                if rating.get("times"):
                    started[(pair, rating["annotator"])].append((float(rating["times"][0]), words))
    rates, all_words, all_seconds = [], 0, 0.0
    for ratings in started.values():
        ratings.sort()
        timed = [(words, b[0] - a[0]) for (a, b), words in
                 zip(zip(ratings, ratings[1:]), (w for _, w in ratings)) if 0 < b[0] - a[0] < 600]
        if timed:
            words, seconds = sum(w for w, _ in timed), sum(s for _, s in timed)
            rates.append(words / seconds * 3600)
            all_words, all_seconds = all_words + words, all_seconds + seconds
    print(f"{path.name}: {len(rates)} raters; words an hour: median {statistics.median(rates):,.0f}, "
          f"mean {statistics.mean(rates):,.0f}, all words over all time {all_words / all_seconds * 3600:,.0f}")


if __name__ == "__main__":
    main()
