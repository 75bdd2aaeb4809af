"""The Tools menu's dialogs: QA checks, triage, the scorecard, where metrics disagree, word accuracy, the tokenizer table
and asking the humans — each a room of its own, opened by the menus (gui/shell/extra_menus.py)."""
