"""Pieces of run-cts.py: running deqp-vk in parallel with crash isolation, and comparing its
results with Kiln's expectations files. Standard library only."""
