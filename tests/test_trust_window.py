"""The window and the two commands keep their word (issue 57): menus name what their dialogs offer, the slice box
says its own errors, the window takes the command's form, pictures have the asked size, and views at laptop
size show what they promise. Each test failed before its fix."""

from __future__ import annotations

import re

from bleu_gui.core.output.exports import check_sentences_target

# -- 10. an export item names every format its dialog offers ---------------------------------------------------

def test_each_export_item_names_exactly_the_formats_its_dialog_offers(window):
    from bleu_gui.gui.shell import export_actions as ex

    menu = window.file_menu
    for action, formats in ((menu.export_sentences, ex.SENTENCE_FORMATS), (menu.export_table, ex.TABLE_FORMATS),
                            (menu.export_report, ex.REPORT_FORMATS)):
        said = re.search(r"\((.*)\)", action.text().replace("&", "")).group(1)
        offered = re.findall(r"\((\*\.\w+)\)", ex.file_filter(formats))
        assert said == ex.formats_said(formats) and len(offered) == len(formats)
        for name, pattern in formats:
            assert name in said and pattern in offered
    for _, pattern in ex.SENTENCE_FORMATS:
        check_sentences_target(f"out{pattern[1:]}")  # the core writes every format the dialog offers
    assert "Excel" in menu.export_sentences.text() and "Excel" in menu.export_table.text()
