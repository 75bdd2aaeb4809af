"""The prompt the judge is sent: a text file with a ``### system`` part and a ``### user`` part (a file without the
headings is the user's message alone), its fields ``{source_lang}``, ``{target_lang}``, ``{source}`` and
``{translation}`` filled in by plain replacement (a brace elsewhere — a JSON example — stays as it is).

The defaults, shipped in the package (``bleu_gui/prompts``), follow GEMBA-MQM (Kocmi & Federmann 2023, "GEMBA-MQM:
Detecting Translation Quality Error Spans with GPT-4") and GEMBA-ESA (the ESA protocol of Kocmi et al. 2024 asked of
an LLM): the same task, typology, severities and score anchors, worded for an answer constrained to a JSON schema
instead of GEMBA's free text and few-shot examples (docs/metrics.md says what differs)."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from ...errors import InputError, term

FIELDS = ("{source_lang}", "{target_lang}", "{source}", "{translation}")
UNDECLARED = ("original", "target-language")  # the languages' names where the run declares none

# The languages the default prompts name (a code the table lacks is said as it is: "the ko text").
LANGUAGES = {"ar": "Arabic", "cs": "Czech", "de": "German", "en": "English", "es": "Spanish", "fi": "Finnish",
             "fr": "French", "hi": "Hindi", "hr": "Croatian", "is": "Icelandic", "it": "Italian", "ja": "Japanese",
             "ko": "Korean", "liv": "Livonian", "pl": "Polish", "pt": "Portuguese", "ru": "Russian",
             "sk": "Slovak", "uk": "Ukrainian", "zh": "Chinese", "tr": "Turkish", "nl": "Dutch", "et": "Estonian",
             "lt": "Lithuanian", "ro": "Romanian", "sah": "Yakut", "he": "Hebrew", "bn": "Bengali", "ta": "Tamil",
             "kk": "Kazakh", "gu": "Gujarati", "ps": "Pashto", "km": "Khmer", "xh": "Xhosa", "zu": "Zulu"}


@dataclass(frozen=True)
class Prompt:
    """A prompt's two parts and where it came from (``origin``: the file, or the default's name)."""

    system: str
    user: str
    origin: str

    @property
    def digest(self) -> str:
        """The prompt's sha256 (of both parts): in the cache's key and, 12 digits of it, in the signature."""
        return hashlib.sha256(f"{self.system}\0{self.user}".encode()).hexdigest()

    def messages(self, source: str, translation: str, languages: tuple[str, str] | None) -> list[dict[str, str]]:
        """The chat messages for one segment."""
        # Undeclared languages: "the target-language translation of the original text", never "the original
        # translation" (which would say the opposite).
        names = [language_name(code, unknown) for code, unknown in zip(languages or ("", ""), UNDECLARED)]
        values = dict(zip(FIELDS, (*names, source, translation)))

        def filled(text: str) -> str:
            # The template's own fields only, each once where it stands: a source holding "{translation}" stays as
            # written.
            literals, fields = _template(text)
            return "".join(part for literal, name in zip(literals, (*fields, "")) for part in
                           (literal, values[name] if name else ""))

        said = [{"role": "system", "content": filled(self.system)}] if self.system else []
        return [*said, {"role": "user", "content": filled(self.user)}]


@functools.lru_cache(maxsize=16)
def _template(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A prompt's text cut at its fields: the literal parts around them (one more than the fields) and the fields,
    in the order they occur."""
    literals: list[str] = []
    fields: list[str] = []
    rest = text
    while True:
        found = [(at, f) for f in FIELDS if (at := rest.find(f)) >= 0]
        if not found:
            return (*literals, rest), tuple(fields)
        at, name = min(found)
        literals.append(rest[:at])
        fields.append(name)
        rest = rest[at + len(name):]


def language_name(code: str, undeclared: str) -> str:
    """A language as the prompt names it (English for ``en``, ``en-GB``; the code itself when unknown;
    ``undeclared`` when the run declares none)."""
    base = code.strip().lower().replace("_", "-").split("-")[0]
    if not base:
        return undeclared
    return LANGUAGES.get(base, code)


def parse_prompt(text: str, origin: str) -> Prompt:
    """A prompt file's text as its two parts (see the module); :class:`InputError` when it has no
    ``{translation}``."""
    system, user = "", text
    lines = text.splitlines(keepends=True)
    if lines and lines[0].strip().lower() == "### system":
        heading = next((k for k, line in enumerate(lines) if line.strip().lower() == "### user"), None)
        if heading is None:
            raise InputError(f"{origin}: a ### system part needs a ### user part after it")
        system, user = "".join(lines[1:heading]).strip(), "".join(lines[heading + 1:]).strip()
    if "{translation}" not in user:
        raise InputError(f"{origin}: the user's message has no {{translation}}: the judge would never see the "
                         "translation")
    return Prompt(system, user.strip(), origin)


def load_prompt(path: str, judge: str) -> Prompt:
    """The prompt of the file ``path`` (``''``: the shipped default of ``judge``)."""
    if not path:
        name = f"llm-{judge}.txt"
        return parse_prompt((files("bleu_gui") / "prompts" / name).read_text(encoding="utf-8"), f"GEMBA-{judge.upper()}")
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"{path}: the prompt cannot be read ({reason}; {term('llm.prompt')})") from exc
    return parse_prompt(text, path)
