"""The PySide6 window: adapts the core's objects to Qt models, views and signals. Computes no score itself."""
