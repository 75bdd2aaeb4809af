"""Help ▸ Getting started, Keyboard shortcuts, Documentation and About: what a newcomer needs, in the window."""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QTextCursor, QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from ...core.metrics.sacre_tokenizers import extra_installed, install_hint
from ..widgets.layout import resize_within_screen

# Links inside the pages that act in the window instead of opening a URL.
ACTIONS = ("open-demo", "open-files")

# (keys, what they do), as the window binds them.
SHORTCUTS = (
    ("Ctrl+O", "File ▸ Open: system outputs, references and how to read them"),
    ("Ctrl+R", "File ▸ Score again: what a cancel left out (a metric, the paired tests), with the settings shown"),
    ("Ctrl+Shift+E", "File ▸ Export figure: the Compare view (or the Inspect view) as PNG, SVG or PDF"),
    ("Ctrl+Q", "Quit"),
    ("F9", "View ▸ Scoring settings: show them, the keyboard in them; again: hide them, back where you were"),
    ("Ctrl+F", "Filter the sentence list by words of the candidate"),
    ("J / K", "Next / previous sentence (with the list focused)"),
    ("Home / End", "First / last sentence (with the list focused)"),
    ("F2", "Edit the candidate in place: every score follows the edit (what-if)"),
    ("Ctrl+M", "Edit ▸ Mark errors: review in Inspect (MQM or ESA) — select with Shift+arrows, then 1/2/3 "
               "Minor/Major/Critical (nothing selected: press it twice), C the category (Enter back), S the source pane "
               "(an omission) and back, + and − the ESA score, 0 or Enter reviewed ▸ next, N next unreviewed, Delete, "
               "A/E/R a suggestion"),
    ("F8", "Tools ▸ QA checks: the flags of each check, F in the list marks one a false positive"),
    ("Ctrl+Shift+L", "Tools ▸ Scorecard: the LQA report, its error list"),
    ("Ctrl+Shift+T", "Tools ▸ Triage: which segments to translate, post-edit or keep"),
    ("Ctrl+Z", "Edit ▸ Undo review change (from anywhere in the window while reviewing)"),
    ("Ctrl+Shift+Z", "Edit ▸ Redo review change (also Ctrl+Y)"),
    ("Click a histogram bar", "List only the sentences in that score range"),
    ("Click an n-gram", "Show where it matched in the references, or why it was clipped"),
    ("Double-click a system", "Rename it (Compare ▸ systems table)"),
)

# The user's pages (the developers' — performance, contributing — stay in the repository).
DOC_PAGES = (("window.md", "The window, tab by tab"), ("cli.md", "bleu-score, the command line"),
             ("metrics.md", "Metrics: BLEU, chrF, TER, COMET, MQM and ESA, which metric to trust, the scorecard"),
             ("formats.md", "Input formats: WMT XML, SGML, TSV/JSONL, XLIFF, TMX; slice expressions"),
             ("qa.md", "Translator QA checks and their false alarms"),
             ("scale.md", "At WMT scale: the judge and COMET on engines elsewhere (vLLM, Ray, Slurm)"))


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def docs_folder() -> Path | None:
    """Where the documentation pages are: a source checkout's docs/, else the copy a wheel installs (or the bundle
    carries) under ``share/bleu-gui/docs`` of its installation — the environment's, or the user's for
    ``pip install --user``; None when none is there."""
    import site

    shared = Path("share") / "bleu-gui" / "docs"
    candidates = [Path(__file__).resolve().parents[3] / "docs", Path(sys.prefix) / shared,
                  Path(site.getuserbase()) / shared]
    return next((folder for folder in candidates if (folder / "window.md").is_file()), None)


def getting_started_html() -> str:
    return f"""
<h2>Getting started</h2>
<p>bleu-gui shows <i>why</i> a translation gets its score and <i>where</i> systems differ. Every number equals
sacreBLEU's and says what produced it: the signature under each score names the metric and its settings.</p>
<h3>1. Open the demo</h3>
<p><a href="open-demo">Open the demo data</a> (File ▸ Open demo data): two systems, two references, twelve
sentences.</p>
<h3>2. Open your own files, or a WMT XML file</h3>
<p><a href="open-files">File ▸ Open…</a> asks for the <b>System outputs</b> (the first is the baseline) and the
<b>References</b>. A WMT XML file (e.g. <code>wmttest2022.en-zh.all.xml</code>) holds the source, the references
and every system: give it as <b>References</b> and leave <b>System outputs</b> empty; pick systems and
references by name under <i>How to read them</i>. Its target language picks BLEU's tokenizer as
<code>sacrebleu -l</code> does (zh, ja-mecab, ko-mecab). You can also drop files on the window.</p>
<h3>3. Five things to try</h3>
<ol>
<li>Click a sentence: the candidate's n-grams are coloured (matched, clipped, unmatched) and
<b>Why this score</b> walks through its sentence BLEU.</li>
<li>Click an n-gram in the candidate to see where it matched in the references.</li>
<li>Press <b>F2</b> and edit the candidate: every score follows your edit; revert with one click.</li>
<li>Open the <b>Compare</b> tab (two or more systems): paired bootstrap and approximate randomization as
sacreBLEU runs them, the pair matrix, and the sentences where B gains or loses most.</li>
<li>Tick <b>chrF</b> or <b>TER</b> in the scoring settings and choose the metric beside the tabs: each shows
its own evidence (characters matched, TER's shifts and edits).</li>
</ol>
<h3>No reference? The translator's path</h3>
<p>Open the source and the machine translation alone — a bilingual XLIFF or PO file as it is, or the
translation with its source (<b>File ▸ Open…</b>, <b>Source</b>). Nothing scores the run yet, and the header
says what could; everything that needs no score works at once:</p>
<ol>
<li><b>Tools ▸ QA checks</b> (F8): numbers, tags, omissions, untranslated or empty targets, punctuation as the target
language writes it. Untick a check you do not want; select a flag and press <b>F</b> to mark it a false positive
(kept beside your review, read again next time).</li>
<li><b>Edit ▸ Mark errors…</b> (Ctrl+M): the review desk, MQM or ESA, by keyboard; every mark is written to your
review file at once.</li>
<li><b>Tools ▸ Scorecard</b> (Ctrl+Shift+L): the LQA report — penalty points per 1,000 words, pass or fail, every error listed
with its span, category, severity and comment (a workbook or a page to hand on).</li>
<li><b>Tools ▸ Triage</b> (Ctrl+Shift+T): which segments to translate (empty), to post-edit (a QA flag, or a QE score below your
threshold) or to keep, written into the XLIFF for your CAT tool.</li>
<li>A score without a reference: COMET's <b>CometKiwi</b> checkpoint, an <b>LLM judge</b> (scoring settings),
or QE scores from a file (<b>File ▸ Import segment scores (COMET, MQM)…</b>).</li>
</ol>
<h3>Japanese and Korean</h3>
<p>{_tokenizer_said("Japanese", "ja-mecab")} {_tokenizer_said("Korean", "ko-mecab")}</p>
"""


def _tokenizer_said(language: str, name: str) -> str:
    """Whether a MeCab tokenizer is here, or how to get it."""
    if extra_installed(name):
        return f"{language} ({name}) is installed."
    return f"{language} ({name}) needs an extra: <code>{install_hint(name)}</code>."


def shortcuts_html() -> str:
    rows = "".join(f"<tr><td><b>{keys}</b>&nbsp;&nbsp;</td><td>{what}</td></tr>" for keys, what in SHORTCUTS)
    return f"<h2>Keyboard shortcuts</h2><table cellpadding='3'>{rows}</table>"


def about_html() -> str:
    versions = [("bleu-gui", _version("bleu-gui")), ("sacreBLEU", _version("sacrebleu")), ("Qt", qVersion()),
                ("PySide6", pyside_version), ("pyqtgraph", _version("pyqtgraph")), ("NumPy", _version("numpy")),
                ("Python", platform.python_version())]
    rows = "".join(f"<tr><td>{name}&nbsp;&nbsp;</td><td>{v}</td></tr>" for name, v in versions)
    folder = docs_folder()
    docs = (f"<p>Documentation: Help ▸ Documentation (the pages in {folder})</p>" if folder is not None else
            "<p>Documentation: the docs/ folder of the source repository.</p>")
    return (f"<h2>bleu-gui {_version('bleu-gui')}</h2><p>See why a machine translation gets its score and where "
            f"MT systems differ. BLEU, chrF and TER equal sacreBLEU's.</p><table>{rows}</table>{docs}"
            "<p>Licence: MIT. sacreBLEU is Apache-2.0; Qt for Python (PySide6) is LGPL-3.0; pyqtgraph is MIT.</p>")


_PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")  # a Markdown image: ![caption](path)


class _Reading(QDialog):
    """A page to read: a text browser whose links :meth:`on_link` follows, and Close."""

    def __init__(self, parent: QWidget | None, name: str, size: tuple[int, int]) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self.on_link)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        box = QVBoxLayout(self)
        box.addWidget(self.browser, 1)
        box.addWidget(buttons)
        resize_within_screen(self, *size)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def on_link(self, url: QUrl) -> None:
        QDesktopServices.openUrl(url)


class DocPage(_Reading):
    """A page of the documentation (docs/*.md) in the app, rendered from its Markdown: Help works without a browser,
    in the bundle too. A link to another page opens it here; a link to the web goes to the system's browser."""

    def __init__(self, parent: QWidget | None, folder: Path, page: str) -> None:
        super().__init__(parent, "docPage", (900, 760))
        self.folder = folder
        self.show_page(page)

    def show_page(self, page: str) -> None:
        """Show ``page`` (a file name of the docs folder)."""
        path = self.folder / page
        title = dict(DOC_PAGES).get(page, page)
        self.setWindowTitle(f"bleu-gui documentation — {title}")
        document = self.browser.document()
        document.setBaseUrl(QUrl.fromLocalFile(str(self.folder) + "/"))  # its images, relative to the page
        document.setMarkdown(self._pictures_present(path.read_text(encoding="utf-8")),
                             QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
        self.browser.moveCursor(QTextCursor.MoveOperation.Start)  # the page opens at its top (Ctrl+End: its end)
        self.browser.verticalScrollBar().setValue(0)
        self.browser.setFocus()  # the reading keys (Ctrl+Home, Page Down) act at once
        self.page = page

    def _pictures_present(self, text: str) -> str:
        """The page with a picture it names but that is not here (the bundle and a wheel carry no screenshots) as
        its caption, in italics, instead of a broken image."""
        def caption(found: re.Match[str]) -> str:
            return found.group(0) if (self.folder / found.group(2)).is_file() else f"*{found.group(1)}*"

        return _PICTURE.sub(caption, text)

    def on_link(self, url: QUrl) -> None:
        target = url.toString()
        page = target.split("#")[0].rsplit("/", 1)[-1]
        if url.scheme() in ("", "file") and page.endswith(".md") and (self.folder / page).is_file():
            self.show_page(page)
            return
        QDesktopServices.openUrl(url)


class HelpPage(_Reading):
    """One help page; a link named in :data:`ACTIONS` calls ``act(name)``, any other opens in the system's
    browser or viewer."""

    def __init__(self, parent: QWidget | None, title: str, html: str,
                 act: Callable[[str], None] | None = None) -> None:
        super().__init__(parent, "helpPage", (680, 620))
        self.setWindowTitle(title)
        self.browser.setHtml(html)
        self.act = act

    def on_link(self, url: QUrl) -> None:
        name = url.toString()
        if name in ACTIONS and self.act is not None:
            self.act(name)
            self.close()
            return
        QDesktopServices.openUrl(url)
