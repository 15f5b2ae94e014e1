# patcher.py is a hostile bot whose import patches the arena: the doctest collection must never import it
collect_ignore = ["patcher.py"]
