"""Messages in the window's words: the core and ``bleu-score`` name flags; the window names the field that sets it.

A message that says "choose the languages with --langs SRC TGT" is right on the command line and useless in
the window, which has no flags: here it says "choose the languages with Languages (File ▸ Open)".
"""

from __future__ import annotations

import re

# The Open dialog's field names, as messages name them.
FIELDS = {"systems": "System outputs", "references": "References", "source": "Source", "docs": "Documents",
          "encoding": "Encoding", "format": "Format", "langs": "Languages", "refs_wanted": "References to use",
          "systems_wanted": "Systems to score", "columns": "Columns", "keep_tags": "Keep inline tags",
          "allow_identical": "Identical reference", "labels": "Display names", "where": "Slice",
          "scores": "Segment scores", "lower_better": "Lower is better", "scores_partial": "Partial scores"}
_OPEN = "File ▸ Open"
_SETTINGS = "Scoring settings"

# (a flag with the words that follow it in messages, the window's words). Longer spellings first.
_TERMS: tuple[tuple[str, str], ...] = (
    (r"--langs SRC TGT|--langs", f"{FIELDS['langs']} ({_OPEN})"),
    (r"--refs NAME(?: \.\.\.)?|--refs", f"{FIELDS['refs_wanted']} ({_OPEN})"),
    (r"--systems NAME(?: \.\.\.)?|--systems", f"{FIELDS['systems_wanted']} ({_OPEN})"),
    (r"--column (?:ROLE|candidate|reference|source|system|doc)=NAME|--column", f"{FIELDS['columns']} ({_OPEN})"),
    (r"--keep-tags", f"{FIELDS['keep_tags']} ({_OPEN})"),
    (r"--input-format(?: \w+)?", f"{FIELDS['format']} ({_OPEN})"),
    (r"--allow-identical-refs", f"{FIELDS['allow_identical']} ({_OPEN})"),
    (r"--src(?: FILE)?", f"{FIELDS['source']} ({_OPEN})"),
    (r"--docs(?: FILE)?", f"{FIELDS['docs']} ({_OPEN})"),
    (r"--where(?= )", f"{FIELDS['where']} ({_OPEN})"),
    (r"--scores-partial", f"{FIELDS['scores_partial']} ({_OPEN})"),
    (r"--scores(?: FILE)?", f"{FIELDS['scores']} ({_OPEN})"),
    (r"--lower-better(?: NAME)?", f"{FIELDS['lower_better']} ({_OPEN})"),
    (r"-m/--metrics", "the Metric list"),
    (r"--glossary(?: FILE)?", "Glossary… (Tools ▸ QA checks)"),
    (r"-i FILE", f"{FIELDS['systems']} ({_OPEN})"),
    (r"-e (NAME|auto|[\w-]+)", rf"{FIELDS['encoding']} \1 ({_OPEN})"),
    (r"--empty-refs (missing|empty)", rf"Empty ref: \1 ({_SETTINGS})"),
    (r"-tok overrides", f"the Tokenizer of {_SETTINGS} overrides"),
    (r"-tok ([\w-]+)", r"tokenizer \1"),
    (r"-lc", f"lowercase ({_SETTINGS})"),
)
_EACH = [(re.compile(f"(?<![\\w-])(?:{flag})(?![\\w-])"), words) for flag, words in _TERMS]

# A flag of ours left in a message (sacreBLEU's own "sacrebleu -l en-ja" is its command, quoted as such).
LEFT_OVER = re.compile(r"(?<![\w-])(?<!sacrebleu )--?[a-z][\w-]*")


def in_window_terms(message: str) -> str:
    """``message`` with each flag replaced by the name of the field that sets it in the window."""
    for pattern, words in _EACH:
        message = pattern.sub(words, message)
    return message
