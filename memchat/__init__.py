"""memchat: a local-first terminal chat assistant with a memory you can see."""

__version__ = "0.1.0"
