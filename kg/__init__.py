"""kg: a knowledge-graph builder for news articles.

Public surface: ``build`` (the pipeline), ``Settings``/``load_settings``, the fact
dataclasses, the store, and the error tree. The CLI (``kg.cli``) and the views sit on top.
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
