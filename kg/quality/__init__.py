"""Measuring extraction against gold files (kg eval) and fitting the confidence model."""
