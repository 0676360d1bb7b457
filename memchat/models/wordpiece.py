"""A small BERT WordPiece tokenizer driven by a Hugging Face `tokenizer.json`.

It exists to check the GGUF conversion independently of llama.cpp: the ids it
produces are the ones the original model was trained with, so llama.cpp's ids
(and embeddings) can be compared against them. It follows the BertNormalizer /
BertPreTokenizer / WordPiece pipeline: clean control characters, space out CJK
ideographs, lower-case and strip accents, split on whitespace and punctuation,
then greedy longest-match with `##` continuations.
"""

from __future__ import annotations

import unicodedata
from typing import Any

_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def _is_cjk(code: int) -> bool:
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_control(char: str) -> bool:
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


class WordPiece:
    """Encode text to ids exactly as the model's Hugging Face tokenizer would (single sentence)."""

    def __init__(self, tokenizer: dict[str, Any]) -> None:
        model = tokenizer["model"]
        self.vocab: dict[str, int] = model["vocab"]
        self.prefix: str = model.get("continuing_subword_prefix", "##")
        self.max_chars: int = model.get("max_input_chars_per_word", 100)
        self.unk_id = self.vocab[model.get("unk_token", "[UNK]")]
        normalizer = tokenizer.get("normalizer") or {}
        self.lowercase = bool(normalizer.get("lowercase", True))
        strip = normalizer.get("strip_accents")
        self.strip_accents = self.lowercase if strip is None else bool(strip)
        self.cls_id = self.vocab["[CLS]"]
        self.sep_id = self.vocab["[SEP]"]

    def normalize(self, text: str) -> str:
        out = []
        for char in text:
            code = ord(char)
            if code == 0 or code == 0xFFFD or _is_control(char):
                continue
            if char.isspace():
                out.append(" ")
            elif _is_cjk(code):
                out.append(f" {char} ")
            else:
                out.append(char)
        cleaned = "".join(out)
        if self.strip_accents:
            cleaned = "".join(c for c in unicodedata.normalize("NFD", cleaned) if unicodedata.category(c) != "Mn")
        return cleaned.lower() if self.lowercase else cleaned

    def words(self, text: str) -> list[str]:
        """Whitespace split, then every punctuation character becomes its own word."""
        words: list[str] = []
        for chunk in self.normalize(text).split():
            current = ""
            for char in chunk:
                if _is_punctuation(char):
                    if current:
                        words.append(current)
                    words.append(char)
                    current = ""
                else:
                    current += char
            if current:
                words.append(current)
        return words

    def word_ids(self, word: str) -> list[int]:
        if len(word) > self.max_chars:
            return [self.unk_id]
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                if piece in self.vocab:
                    ids.append(self.vocab[piece])
                    break
                end -= 1
            else:
                return [self.unk_id]
            start = end
        return ids

    def encode(self, text: str, max_length: int = 512) -> list[int]:
        """[CLS] + WordPiece ids + [SEP], truncated to `max_length`."""
        body = [i for word in self.words(text) for i in self.word_ids(word)]
        return [self.cls_id, *body[: max_length - 2], self.sep_id]
