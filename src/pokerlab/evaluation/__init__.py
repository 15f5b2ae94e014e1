"""Evaluation: variance-reduced estimates of what a player wins (control variates, luck adjustment) and how
exploitable it is. It reads results folders and sees every card; nothing below it imports it."""
