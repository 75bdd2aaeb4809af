"""From the files a user names to a run's systems, references and context, in any input format.

Plain text files are read as before (one segment per line, decoded alike).
A structured file gives fields by role: a WMT XML file or a TSV/JSONL with a
system column holds systems *and* references, so ``bleu-score FILE.xml``
alone scores every system in it against all its references; an XLIFF, TMX or
SGML file holds one translation, a candidate when given with ``-i`` and a
reference otherwise. The source comes from ``--src`` (its source side) or, when
not given, from the first structured input that carries one — and a note says
which. Nothing is picked up silently.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InputError, term
from .corpus import Context, Corpus
from .format_table import ReadOptions, read_corpus, sniff_format
from .po import align_catalogues, aligned
from .raw_input import STDIN, input_path, read_bytes, real_path
from .reference_folders import FolderGave, expand_references
from .test_sets import TestSetFiles, test_set_files
from .text_files import (
    SegmentFile,
    as_sacrebleu_reads,
    check_not_identical,
    check_same_length,
    decode_file,
    decode_text_files,
)

Progress = Callable[[float], None]


@dataclass(frozen=True)
class Inputs:
    """What a run scores: systems (baseline first), references, and what surrounds them."""

    systems: list[SegmentFile]
    references: list[SegmentFile]
    context: Context


def _read_all(paths: Sequence[Path], encoding: str, options: ReadOptions,
              progress: Progress | None) -> list[SegmentFile | Corpus]:
    """Each input read once (a pipe cannot be read twice), its format sniffed from those bytes, then read in
    that format; plain text files are decoded together (one encoding for all)."""
    if sum(p == STDIN for p in paths) > 1:
        raise InputError("standard input (-) can be read only once")
    datas = []
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i / len(paths))
        datas.append(read_bytes(path, encoding))
    formats = [options.input_format or sniff_format(p, d) for p, d in zip(paths, datas)]
    text = [(p, d) for p, d, f in zip(paths, datas, formats) if f == "text"]
    texts = iter([as_sacrebleu_reads(f) for f in decode_text_files([p for p, _ in text], [d for _, d in text], encoding)]
                 if text else [])
    return [next(texts) if f == "text" else read_corpus(p, f, d, encoding, options)
            for p, d, f in zip(paths, datas, formats)]


def _read_one(path: Path, encoding: str, options: ReadOptions) -> SegmentFile | Corpus:
    return _read_all([path], encoding, options, None)[0]


def _matches(f: SegmentFile, wanted: str) -> bool:
    return wanted in (f.field, f.field.removeprefix("ref:"), f.name, str(f.path))


def _pick(files: list[SegmentFile], wanted: Sequence[str] | None, what: str) -> list[SegmentFile]:
    if not wanted:
        return files
    picked: list[SegmentFile] = []
    for name in wanted:
        found = [f for f in files if _matches(f, name)]
        if not found:
            available = ", ".join(f.field or f.name for f in files) or "none"
            raise InputError(f"no {what} named {name!r} (the inputs have: {available})")
        picked += [f for f in found if all(f is not p for p in picked)]
    return picked


def _systems(read: list[SegmentFile | Corpus], given: bool) -> list[SegmentFile]:
    """The systems of the inputs given with ``-i`` (``given``), or else those inside the reference files (a
    plain text reference is never a system)."""
    out: list[SegmentFile] = []
    for item in read:
        if isinstance(item, SegmentFile):
            if given:
                out.append(item)
        elif given:
            found = item.systems + item.translations
            if not found and item.unroled:
                raise InputError(item.which_columns())
            if not found:
                raise InputError(f"{item.path}: holds no translation to score (a {item.format} file with only "
                                 "a source or references)")
            out += found
        else:
            out += item.systems or (item.translations if item.references else [])
    return out


def _references(read: list[SegmentFile | Corpus], systems: list[SegmentFile]) -> list[SegmentFile]:
    out: list[SegmentFile] = []
    for item in read:
        if isinstance(item, SegmentFile):
            out.append(item)
        else:
            taken = {id(s) for s in systems}
            out += [f for f in item.references + item.translations if id(f) not in taken]
    return out


def _source(path: Path | None, encoding: str, options: ReadOptions,
            corpora: list[Corpus]) -> tuple[SegmentFile | None, str]:
    """The source: the file given (``corpora`` gains it when it is structured), or the first one inside an input."""
    if path is not None:
        corpus = _read_one(path, encoding, options)
        if isinstance(corpus, SegmentFile):
            return corpus, ""
        catalogue = next((c for c in corpora if c.format == "po"), None)
        if corpus.format == "po" and catalogue is not None:  # a catalogue as the source: its msgids, by key
            corpus = aligned(corpus, catalogue.context.segment_ids or (), catalogue.path)
        corpora.append(corpus)
        found = corpus.context.source or (corpus.translations[0] if corpus.translations else None)
        if found is None:
            raise InputError(f"{path}: holds no source text (a {corpus.format} file)")
        return found, ""
    for corpus in corpora:
        if corpus.context.source is not None:
            return corpus.context.source, f"source: {corpus.context.source.name} (inside the input; {term('source')} overrides)"
    return None, ""


def read_docs(path: Path, encoding: str) -> Context:
    """A ``.docs`` file: one document id per line (sacreBLEU's), or ``domain<TAB>document`` per line (WMT's and
    mt-metrics-eval's: the domain a metadata field of the slices)."""
    lines = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0].lines
    if not any("\t" in line for line in lines):
        return Context(docs=tuple(lines))
    pairs = [line.split("\t") for line in lines]
    bad = next((n for n, fields in enumerate(pairs, 1) if len(fields) != 2), None)
    if bad is not None:
        raise InputError(f"{path}: line {bad}: a docs file with tabs has domain<TAB>document on every line, as WMT "
                         f"writes them; this line has {len(pairs[bad - 1]) - 1} tab(s)")
    return Context(docs=tuple(doc for _, doc in pairs), meta={"domain": tuple(domain for domain, _ in pairs)})


def _docs(path: Path | None, encoding: str, corpora: list[Corpus]) -> tuple[Context, str]:
    """Document ids and metadata: from a ``.docs`` file (see :func:`read_docs`), else the first input that has
    them."""
    if path is not None:
        return read_docs(path, encoding), ""
    for corpus in corpora:
        if corpus.context.docs is not None or corpus.context.meta:
            return (Context(docs=corpus.context.docs, meta=corpus.context.meta, segment_ids=corpus.context.segment_ids),
                    f"documents and metadata from {corpus.path.name}")
    return Context(), ""


@dataclass(frozen=True, kw_only=True)
class InputRequest:
    """What to read and how: ``bleu-score``'s input flags, the window's Open dialog and a session hold one.

    ``systems`` may be empty when a reference file holds systems (WMT XML, a TSV with a system column).
    """

    systems: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    encoding: str = "utf-8"
    source: str | None = None
    docs: str | None = None
    options: ReadOptions = ReadOptions()
    refs_wanted: tuple[str, ...] | None = None
    systems_wanted: tuple[str, ...] | None = None
    allow_identical: bool = False
    scores: tuple[str, ...] = ()        # files of segment scores from outside (see score_files)
    lower_better: tuple[str, ...] = ()  # imported metrics whose lower scores are better
    scores_partial: bool = False        # a score file may lack systems or segments of the run
    annotations: tuple[str, ...] = ()   # files of human error annotations (MQM; see annotations)
    test_set: str | None = None         # a test set by name (sacreBLEU's -t): its source, references and fields

    def paths(self) -> list[str]:
        """Every file the request names."""
        return [*self.systems, *self.references, *(p for p in (self.source, self.docs) if p), *self.scores,
                *self.annotations]


def read_request(request: InputRequest, *, stdin_system: bool = False, progress: Progress | None = None) -> Inputs:
    """:func:`read_run_inputs` of a request; a test set by name (:mod:`.test_sets`) brings its source, references,
    documents and other fields, and the run's languages."""
    named = _test_set(request)
    if named is not None:
        request = replace(request, references=tuple(str(p) for p in named.references),
                          source=request.source or str(named.source),
                          docs=request.docs or (str(named.fields["docid"]) if "docid" in named.fields else None),
                          options=replace(request.options, langs=request.options.langs or named.languages))
    inputs = read_run_inputs(request.systems, request.references, request.encoding, source=request.source,
                             docs=request.docs, options=request.options, refs_wanted=request.refs_wanted,
                             systems_wanted=request.systems_wanted, allow_identical=request.allow_identical,
                             stdin_system=stdin_system, progress=progress)
    if named is None:
        return inputs
    meta = {field: tuple(decode_text_files([path], [read_bytes(path, "utf-8")], "utf-8")[0].lines)
            for field, path in named.fields.items() if field != "docid"}
    context = replace(inputs.context, meta={**inputs.context.meta, **meta}, test_set=(named.name, named.langpair))
    context.check_length(len(inputs.systems[0].lines))
    return replace(inputs, context=context)


def _test_set(request: InputRequest) -> TestSetFiles | None:
    if request.test_set is None:
        return None
    if request.references:
        raise InputError(f"{term('test_set', request.test_set)} brings its references: give no reference file with it")
    languages = request.options.langs
    return test_set_files(request.test_set, "-".join(languages) if languages else None)


def read_run_inputs(hypotheses: Sequence[str | Path], references: Sequence[str | Path], encoding: str = "utf-8", *,
                    source: str | Path | None = None, docs: str | Path | None = None,
                    options: ReadOptions = ReadOptions(), refs_wanted: Sequence[str] | None = None,
                    systems_wanted: Sequence[str] | None = None, allow_identical: bool = False,
                    stdin_system: bool = False, progress: Progress | None = None) -> Inputs:
    """Read every input in its format and decide what is system, reference, source and document (see the module).

    ``hypotheses`` may name ``-``: standard input. ``refs_wanted`` picks references by
    field or translator (``A`` or ``ref:A``) or file name, or turns a system of a long
    table (``Human-A.0``) into the reference; ``systems_wanted`` picks systems by name.
    ``stdin_system``: without ``hypotheses`` and with no system inside the reference
    files, the system is read from standard input (as ``sacrebleu REF < HYP``).
    ``progress`` may raise to stop.
    """
    if not references and not hypotheses:
        raise InputError(f"no input given: the system outputs ({term('systems')}) with a reference file, or the source "
                         f"({term('source')}) for a run without references")
    ref_paths, folder_notes = expand_references(references, hypotheses, allow_identical, decided=bool(refs_wanted))
    with _said_of_folder_files(folder_notes):
        hyp_paths = [input_path(p) for p in hypotheses]
        options = replace(options, refs=tuple(refs_wanted or ()))
        read = align_catalogues(_read_all([*hyp_paths, *ref_paths], encoding, options, progress), len(hyp_paths))
        hyp_read, ref_read = read[:len(hyp_paths)], read[len(hyp_paths):]
        systems = _systems(hyp_read if hyp_paths else ref_read, bool(hyp_paths))
        unroled = next((c for c in ref_read if isinstance(c, Corpus) and c.unroled), None)
        if not systems and not hyp_paths and unroled is not None:
            raise InputError(unroled.which_columns())  # its columns, not standard input, are the systems asked for
        if not systems and not hyp_paths and stdin_system:
            systems = [_read_stdin(ref_read, encoding)]
            hyp_paths = [STDIN]
        if not systems:
            raise InputError(f"no system output given (use {term('systems')}, pipe it to standard input, or give a file that "
                             "holds systems: WMT XML, or a TSV/JSONL with a system column)")
        references_found = _references(ref_read, systems)
        if refs_wanted:
            # Without -i, a system of the file may be named as the reference (a long table's "Human-A.0").
            movable = [] if hyp_paths else [s for s in systems if any(_matches(s, w) for w in refs_wanted)]
            systems = [s for s in systems if all(s is not m for m in movable)]
            references_found = _pick(references_found + movable, refs_wanted, "reference")
        systems = _pick(systems, systems_wanted, "system")
        if not systems:
            raise InputError("every system was taken as a reference; nothing is left to score")
        # The references' source, documents and metadata first (a reference catalogue's comments and file
        # references; a system's file may lack them).
        corpora = [c for c in [*ref_read, *hyp_read] if isinstance(c, Corpus)]
        _check_same_documents(corpora)
        src, src_note = _source(input_path(source) if source is not None else None, encoding, options, corpora)
        # A long table opened alone whose systems hold a likely reference ("ref", "Human-A.0"): its reference was
        # forgotten more likely than meant away; naming the systems to score makes it a run without references.
        if not references_found and (src is None or (not hyp_paths and not systems_wanted and _likely(systems))):
            _no_reference(systems, bool(hyp_paths))
        _check_options_used(options, corpora)
        context, docs_note = _docs(input_path(docs) if docs is not None else None, encoding, corpora)
        notes = [n for c in corpora for n in c.notes] + [n for n in (src_note, docs_note) if n]
        # The references' declared language first: they are what BLEU's tokenizer must suit (sacreBLEU's trg_lang).
        by_role = [c for c in ref_read if isinstance(c, Corpus)] + [c for c in hyp_read if isinstance(c, Corpus)]
        languages, languages_from = _languages(options, by_role)
        context = Context(src, context.docs, context.meta, tuple(notes), segment_ids=context.segment_ids,
                          languages=languages, languages_from=languages_from)
        check_same_length([*systems, *references_found, *([src] if src is not None else [])])
        context.check_length(len(systems[0].lines))
        empty_notes = _something_to_score(systems, references_found)
        if empty_notes:
            context = replace(context, notes=context.notes + tuple(empty_notes))
        if not allow_identical:
            check_not_identical(systems, references_found)
        references_found = [replace(f, notes=(folder_notes[f.path].note, *f.notes)) if f.path in folder_notes
                            else f for f in references_found]
        return Inputs(systems, references_found, context)


def _likely(systems: list[SegmentFile]) -> bool:
    return any(_reference_like(s.field) for s in systems)


def _reference_like(name: str) -> bool:
    return any(w in name.lower() for w in ("ref", "human"))


def _no_reference(systems: list[SegmentFile], given: bool) -> None:
    """Refuse a run with neither a reference nor a source (a run without references scores the source and the
    candidate: quality estimation), or a long table opened alone that holds a likely reference among its systems,
    pointing at it."""
    named = [s.field for s in systems if s.field] if not given else []
    named.sort(key=lambda n: not _reference_like(n))  # likely references first
    if named:  # a long table (MQM) holds its reference as one of its systems
        shown = ", ".join(named[:8]) + (" …" if len(named) > 8 else "")
        raise InputError(f"no reference: the inputs hold no reference text; take one of the table's systems as the "
                         f"reference with {term('refs_wanted')} (it has {shown}), or give a reference file; for a run "
                         f"without references, name the systems to score with {term('systems_wanted')} (and the "
                         f"source, {term('source')}, when the table has none)")
    raise InputError(f"no reference and no source: give a reference file, or the source ({term('source')}) for a run "
                     "without references (quality estimation)")


def _something_to_score(systems: list[SegmentFile], references: list[SegmentFile]) -> list[str]:
    """References whose every segment is empty hold nothing to score against (refused). A system output whose every
    segment is empty (an XLIFF never translated, a table's empty column) is scored as sacreBLEU scores it (BLEU 0,
    TER 100), and said in a note."""
    def empty(f: SegmentFile) -> bool:
        return not any(line.strip() for line in f.lines)

    if references and all(empty(f) for f in references):
        raise InputError(f"nothing to score: every segment of the reference {', '.join(f.name for f in references)} "
                         "is empty")
    return [f"every segment of the system output {f.name} is empty (a file never translated?): scored as it is, as "
            "sacreBLEU scores it" for f in systems if empty(f)]


def _read_stdin(read: list[SegmentFile | Corpus], encoding: str) -> SegmentFile:
    """The system piped to standard input, decoded as the plain text references were."""
    like = [f for f in read if isinstance(f, SegmentFile)]
    data = read_bytes(STDIN, encoding)
    if like:
        return as_sacrebleu_reads(decode_file(STDIN, data, like[0].encoding, like[0].detected))
    return as_sacrebleu_reads(decode_text_files([STDIN], [data], encoding)[0])


def _languages(options: ReadOptions, corpora: list[Corpus]) -> tuple[tuple[str, str] | None, str]:
    """(source, target) languages and who declared them: the languages given (they also pick a TMX file's two,
    and declare plain text's as ``sacrebleu -l`` does), else the first input that declares a target language."""
    if options.langs is not None:
        return options.langs, "given"
    for corpus in corpora:
        if corpus.languages is not None and corpus.languages[1]:
            return corpus.languages, f"declared in {corpus.path.name}"
    return None, ""


# Options of ReadOptions that only some formats read: given with none of them among the inputs, they are refused.
_OPTION_FORMATS = (("columns", "TSV, JSONL and workbook", ("tsv", "jsonl", "xlsx")),
                   ("keep_tags", "XLIFF and TMX", ("xliff", "tmx")), ("sheet", "workbook", ("xlsx",)))


def _check_options_used(options: ReadOptions, corpora: list[Corpus]) -> None:
    formats = {c.format.split("-")[0] for c in corpora}
    for name, kinds, readers in _OPTION_FORMATS:
        if getattr(options, name) and not formats & set(readers):
            raise InputError(f"{term(name)} applies to {kinds} files; none of the inputs is one, so it would be ignored")


def _check_same_documents(corpora: list[Corpus]) -> None:
    """Tables (TSV, JSONL) read from separate files are matched by document id, never by position: each must
    hold the same documents in the same order, with as many segments each."""
    tables = [c for c in corpora if c.format in ("tsv", "jsonl") and c.context.docs is not None]
    for other in tables[1:]:
        first = tables[0]
        a, b = first.context.docs or (), other.context.docs or ()
        if a == b:
            continue
        set_a, set_b = dict.fromkeys(a), dict.fromkeys(b)
        only_a = [d for d in set_a if d not in set_b]
        only_b = [d for d in set_b if d not in set_a]
        if only_a or only_b:
            parts = [f"{c.path} has {', '.join(d[:5])}{' …' if len(d) > 5 else ''} that the other lacks"
                     for c, d in ((first, only_a), (other, only_b)) if d]
            why = "; ".join(parts)
        else:
            at = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y) if len(a) == len(b) else min(len(a), len(b))
            why = (f"segment {at + 1} is in document {a[at] if at < len(a) else '(none)'!r} in {first.path} but "
                   f"{b[at] if at < len(b) else '(none)'!r} in {other.path} (another order, or another number of "
                   "segments per document)")
        raise InputError(f"{first.path} and {other.path} hold different documents: {why}; documents are matched by "
                         "their ids, never by position")


@contextlib.contextmanager
def _said_of_folder_files(from_folders: dict[Path, FolderGave]) -> Iterator[None]:
    """An input error that names a file a folder gave also says what that folder gave (a stray file read as a
    reference is otherwise a puzzle)."""
    try:
        yield
    except InputError as exc:
        named = next((p for p in from_folders if str(p) in str(exc)), None)
        if named is None:
            raise
        raise type(exc)(f"{exc.raw} ({from_folders[named].account})") from None


def read_more_systems(paths: Sequence[str | Path], like: Sequence[SegmentFile], references: Sequence[SegmentFile],
                      options: ReadOptions = ReadOptions()) -> list[SegmentFile]:
    """System outputs added to a run, each read in its format: plain text decoded exactly as the run's files
    (``like``) were — with their one encoding, detected or given, never a guess of its own — and a
    structured file's translations; checked against the references as :func:`read_run_inputs` checks systems."""
    files: list[SegmentFile] = []
    for raw in paths:
        path = input_path(raw)
        if any(real_path(path) == real_path(r.path) for r in references):
            raise InputError(f"{path}: given as a system and as a reference")
        data = read_bytes(path, like[0].encoding)
        fmt = options.input_format or sniff_format(path, data)
        if fmt == "text":
            files.append(as_sacrebleu_reads(decode_file(path, data, like[0].encoding, like[0].detected)))
        else:
            files += _systems([read_corpus(path, fmt, data, like[0].encoding, options)], given=True)
    check_same_length([*like, *files])
    check_not_identical(files, references)
    return files
