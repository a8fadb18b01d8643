"""Finding any of a list of words, as a whole word, in one pass over a text.

The gate words come from the committed config and the text from a checkpoint: both may
be hostile. An alternation of the words in one regular expression costs the text's
length times the words' (a word that is a long run of another's prefixes), and
compiling it grows faster than the list. Here the words make one automaton (every
word's prefixes, each with the longest proper suffix that is also a prefix), built in
the words' total length and walked once along the text.

A whole word: not preceded nor followed by a letter a-z or a digit (the text and the
words lower-cased first).
"""

from __future__ import annotations

from functools import lru_cache

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class WholeWords:
    def __init__(self, words: tuple[str, ...]) -> None:
        self.empty = False  # "" is a word: it stands between two non-word characters
        self.goto: list[dict[str, int]] = [{}]
        self.depth = [0]
        ends = [False]  # a word ends at this state
        for word in words:
            state = 0
            for char in word:
                nxt = self.goto[state].get(char)
                if nxt is None:
                    nxt = len(self.goto)
                    self.goto[state][char] = nxt
                    self.goto.append({})
                    self.depth.append(self.depth[state] + 1)
                    ends.append(False)
                state = nxt
            if state == 0:
                self.empty = True
            ends[state] = True
        # breadth first: each state's fallback, and the nearest ending state on its
        # chain of fallbacks (itself included), 0 when there is none
        self.fail = [0] * len(self.goto)
        self.output = [0] * len(self.goto)
        queue = list(self.goto[0].values())
        for state in queue:
            self.output[state] = state if ends[state] else 0
        at = 0
        while at < len(queue):
            state = queue[at]
            at += 1
            for char, nxt in self.goto[state].items():
                back = self.fail[state]
                while back and char not in self.goto[back]:
                    back = self.fail[back]
                self.fail[nxt] = self.goto[back].get(char, 0)
                self.output[nxt] = nxt if ends[nxt] else self.output[self.fail[nxt]]
                queue.append(nxt)

    def search(self, text: str) -> bool:
        """Whether one of the words is in `text` (already lower-cased) as a whole word."""
        size = len(text)
        if self.empty and any(
            (i == 0 or text[i - 1] not in _WORD_CHARS) and (i == size or text[i] not in _WORD_CHARS)
            for i in range(size + 1)
        ):
            return True
        goto, fail, output, depth = self.goto, self.fail, self.output, self.depth
        state = 0
        for end, char in enumerate(text, 1):
            while state and char not in goto[state]:
                state = fail[state]
            state = goto[state].get(char, 0)
            found = output[state]
            if not found or (end < size and text[end] in _WORD_CHARS):
                continue
            while found:  # every word ending here, longest first
                start = end - depth[found]
                if start == 0 or text[start - 1] not in _WORD_CHARS:
                    return True
                found = output[fail[found]]
        return False


@lru_cache(maxsize=8)
def whole_words(words: tuple[str, ...]) -> WholeWords:
    """The automaton of `words` (lower-cased), built once per list."""
    return WholeWords(tuple(word.lower() for word in words))
