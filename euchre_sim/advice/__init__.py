"""Advice for one hand: an advise question, its deals, and the answer."""
