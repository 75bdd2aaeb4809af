"""Tools ▸ Word accuracy by frequency: compare-mt's buckets, each system's F-measure per bucket (a dot each) with
its bootstrap interval in the table, computed in the worker."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QLabel, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from ...core import Run
from ...core.analysis.word_accuracy import WordAccuracy, word_accuracy_of_lines
from ..compare.compare_charts import DotStrips
from ..jobs import JobController
from ..widgets.layout import resize_within_screen
from ..widgets.style import styled


def compute(run: Run) -> tuple[WordAccuracy, tuple[np.ndarray, np.ndarray]]:
    """Word accuracy of every system against the first reference, on BLEU's tokens, with F's intervals."""
    bleu = run.bleu
    result = word_accuracy_of_lines(run.references[0].lines, [s.lines for s in run.systems],
                                    bleu.config.tokenizer_name if bleu is not None else "13a",
                                    bool(bleu is not None and bleu.config.lowercase))
    return result, result.intervals()


class WordAccuracyDialog(QDialog):
    """Signals: ``ready()`` once shown, ``failed(str)``."""

    ready = Signal()
    failed = Signal(str)

    def __init__(self, parent: QWidget, run: Run, open_segment: Callable[[int, int], None] | None = None):
        """``open_segment(system, sentence)``: opens a sentence a word occurs in (clicked in the words' list)."""
        super().__init__(parent)
        self.open_segment = open_segment
        self.accuracy: WordAccuracy | None = None
        self.setWindowTitle("Word accuracy by frequency")
        self.setObjectName("wordAccuracyDialog")
        self.run = run
        self.note = QLabel(f"Computing on {run.n_sentences:,} sentences…")
        self.note.setWordWrap(True)
        styled(self.note, "hint")
        self.chart = DotStrips("F-measure by word frequency", "frequency of the reference word", "F-measure", tip=(
            "compare-mt's word accuracy: reference words bucketed by how often they occur in the reference; per "
            "bucket the F-measure of each system's matched words"))
        self.chart.legend.setVisible(True)  # one chart here: its own legend names the systems
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.cellClicked.connect(lambda row, _col: self.show_words(row))
        self.words = QTableWidget()
        self.words.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.words.verticalHeader().setVisible(False)
        self.words.cellClicked.connect(self.on_word_clicked)
        self.words_title = QLabel("Click a bucket for its words and the sentences they occur in")
        styled(self.words_title, "hint")
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.table)
        words = QWidget()
        wbox = QVBoxLayout(words)
        wbox.setContentsMargins(0, 0, 0, 0)
        wbox.addWidget(self.words_title)
        wbox.addWidget(self.words, 1)
        lower.addWidget(words)
        box = QVBoxLayout(self)
        box.addWidget(self.note)
        box.addWidget(self.chart, 1)
        box.addWidget(lower, 1)
        resize_within_screen(self, 960, 760)
        self.jobs = JobController(self)
        self.jobs.failed.connect(lambda message, _details: self._failed(message))
        self.jobs.submit(lambda _progress: compute(run), self.show_result)

    def _failed(self, message: str) -> None:
        self.note.setText(f"Word accuracy could not be computed: {message}")
        self.failed.emit(message)

    def show_result(self, computed: tuple[WordAccuracy, tuple[np.ndarray, np.ndarray]]) -> None:
        result, (low, high) = computed
        names = [s.name for s in self.run.systems]
        recall, precision, fmeas = result.measures()
        matched, reference, output = result.totals()
        tips = [f"{label}: {int(reference[b]):,} reference words" for b, label in enumerate(result.labels)]
        # A bucket without reference words has no F-measure: no dot (compare-mt's 0 would read as a miss).
        self.chart.update_values(names, np.where(reference[None, :] > 0, fmeas, np.nan), result.labels, tips)
        bleu = self.run.bleu
        self.note.setText(f"Reference words of {self.run.references[0].name} bucketed by how often they occur in it "
                          f"(compare-mt's buckets; tokens of {bleu.config.tokenizer_name if bleu else '13a'}). "
                          "F-measure of each system's matched words per bucket, with the 95% interval of 1,000 "
                          "bootstrap resamples of the sentences (seed 12345). bleu-score --word-accuracy prints it.")
        self.table.setRowCount(len(result.labels))
        self.table.setColumnCount(1 + 2 * len(names))
        self.table.setHorizontalHeaderLabels(["ref words", *(f"{n}: F [95%]" for n in names),
                                              *(f"{n}: matched/out" for n in names)])
        self.table.setVerticalHeaderLabels(result.labels)
        for b in range(len(result.labels)):
            self.table.setItem(b, 0, QTableWidgetItem(f"{int(reference[b]):,}"))
            for s in range(len(names)):
                self.table.setItem(b, 1 + s, QTableWidgetItem(
                    f"{fmeas[s, b]:.3f} [{low[s, b]:.3f}, {high[s, b]:.3f}]" if reference[b] else "–"))
                self.table.setItem(b, 1 + len(names) + s, QTableWidgetItem(
                    f"{int(matched[s, b]):,}/{int(output[s, b]):,}"))
        self.table.resizeColumnsToContents()
        self.accuracy = result
        self.ready.emit()

    def show_words(self, bucket: int) -> None:
        """The reference words of a bucket, most frequent first, with the sentences they occur in."""
        result = self.accuracy
        if result is None:
            return
        words = result.words(bucket)
        self.words_title.setText(f"Bucket {result.labels[bucket]}: {len(words):,} reference words; click one to open "
                                 "its first sentence")
        self.words.setColumnCount(3)
        self.words.setHorizontalHeaderLabels(["word", "frequency", "sentences (lines)"])
        self.words.setRowCount(len(words))
        for r, word in enumerate(words):
            sentences = result.occurrences[word]
            lines = ", ".join(str(self.run.line_number(i)) for i in sentences[:8]) + (" …" if len(sentences) > 8 else "")
            for c, text in enumerate((word, f"{result.frequency[word]:,}", lines)):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, sentences[0])
                self.words.setItem(r, c, item)
        self.words.resizeColumnsToContents()

    def on_word_clicked(self, row: int, _column: int) -> None:
        item = self.words.item(row, 0)
        if item is not None and self.open_segment is not None:
            self.open_segment(0, int(item.data(Qt.ItemDataRole.UserRole)))
