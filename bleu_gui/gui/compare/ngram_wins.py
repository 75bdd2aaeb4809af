"""BLEU's n-grams that B matches more often than A over the corpus, and the reverse, ranked in the worker; a click
lists the sentences that hold the n-gram."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHeaderView, QLabel, QVBoxLayout, QWidget

from ...core import Run
from ..controller import Controller
from ..widgets.layout import STRETCH, fill_orders, hrow
from .compare_models import NgramTableModel
from .pair_list import compare_table


class NgramWins(QWidget):
    """Signal: ``sentences_chosen(sentences, why)`` when an n-gram is clicked."""

    sentences_chosen = Signal(object, str)

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.order = QComboBox()
        self.order.currentIndexChanged.connect(self.refresh)
        self.wins_b, self.wins_a = NgramTableModel(self), NgramTableModel(self)
        self.wins_b_view, self.wins_a_view = compare_table(self.wins_b), compare_table(self.wins_a)
        for view in (self.wins_b_view, self.wins_a_view):
            view.clicked.connect(self.on_ngram_clicked)
            header = view.horizontalHeader()
            header.setStretchLastSection(False)
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            for col in (1, 2, 3):
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
                view.setColumnWidth(col, 46)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow("<b>n-grams B matches more</b>", STRETCH, self.order))
        box.addWidget(self.wins_b_view, 1)
        box.addWidget(QLabel("<b>n-grams A matches more</b>"))
        box.addWidget(self.wins_a_view, 1)
        fill_orders(self.order, 4, all_orders=False)
        controller.run_changed.connect(self.on_run_changed)
        controller.b_changed.connect(self.refresh)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        bleu = run.bleu if run is not None else None
        self.order.blockSignals(True)
        fill_orders(self.order, bleu.config.max_order if bleu is not None else 4, all_orders=False)
        self.order.blockSignals(False)
        self.refresh()

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether the run has BLEU's n-gram wins (a comparison under BLEU)."""
        return run is not None and run.comparison is not None and bool(run.comparison.ngram_wins)

    @Slot()
    def refresh(self) -> None:
        run = self.controller.run
        if run is None or run.comparison is None or not run.comparison.ngram_wins:
            self.release()
            return
        order = self.order.currentData() or 1
        # Ranked in the worker; here they are only shown.
        wins_b, wins_a = run.comparison.ngram_wins[self.controller.b - 1].wins.get(order, ([], []))
        self.wins_b.set_items(wins_b)
        self.wins_a.set_items(wins_a)
        for view, (more, fewer) in ((self.wins_b_view, "BA"), (self.wins_a_view, "AB")):
            view.empty_text = f"{more} matches no {order}-gram more often than {fewer}"  # painted after the reset

    def release(self) -> None:
        self.wins_b.set_items([])
        self.wins_a.set_items([])

    @Slot(QModelIndex)
    def on_ngram_clicked(self, index: QModelIndex) -> None:
        run = self.controller.run
        if run is None or run.comparison is None:
            return
        model = index.model()
        assert isinstance(model, NgramTableModel)
        item = model.items[index.row()]
        sentences = run.comparison.ngram_wins[self.controller.b - 1].ngrams.sentences_with(item.order, item.ngram)
        self.sentences_chosen.emit(sentences, f"{len(sentences)} sentences with “{item.ngram}”")
        if len(sentences):
            self.controller.set_sentence(int(sentences[0]))
