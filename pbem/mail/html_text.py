"""HTML mail bodies to the plain lines a reader of the rendered mail saw.

The order parser reads lines, so an HTML-only mail (common from webmail and phones) must come
out as the same lines a person saw: block elements end lines, quotes keep their "> ".
"""
from __future__ import annotations

import logging
import re
from html.parser import HTMLParser

log = logging.getLogger(__name__)


_BLOCK_TAGS = {
    "p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "address", "center", "dl", "dt", "dd", "section", "article", "header", "footer", "hr",
    "form", "fieldset", "blockquote",
}
_SKIP_TAGS = {"head", "style", "script", "title", "template"}


class _TextExtractor(HTMLParser):
    """HTML to plain lines: block elements and <br> end lines, blockquotes become "> " quotes.

    No markup survives (no emphasis, no link targets), so the order parser sees what a
    reader of the rendered mail saw.

    Not html2text: it writes Markdown, and even set up for plain text (no wrapping, links,
    emphasis or tables) it escaped a leading "-", so the "--" signature line and Outlook's
    "-----Original Message-----" were no longer recognised and signatures and quoted
    reports stayed in the orders of three corpus mails (gmail_html_only, outlook_html_only,
    outlook_web_html); it also turns <hr> into "* * *", list items into "  1. BUY ...",
    indents <pre> by four spaces and runs table cells together.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current = ""
        self.quote_depth = 0
        self.skip_depth = 0
        self.pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _SKIP_TAGS:
            self.skip_depth += 1
        elif tag == "br":
            self._end_line(force=True)
        elif tag in ("td", "th"):
            self.current += " "
        elif tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth += 1
            elif tag == "pre":
                self.pre_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth = max(0, self.quote_depth - 1)
            elif tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.pre_depth:
            chunks = data.replace("\r\n", "\n").split("\n")
            for chunk in chunks[:-1]:
                self.current += chunk
                self._end_line(force=True)
            self.current += chunks[-1]
            return
        text = re.sub(r"[ \t\r\n\f]+", " ", data)
        if not self.current.strip():
            text = text.lstrip(" ")
        self.current += text

    def _end_line(self, force: bool = False) -> None:
        line = self.current.rstrip()
        if self.current or force:
            prefix = "> " * self.quote_depth
            self.lines.append((prefix + line.strip(" ")).rstrip() if not self.pre_depth
                              else prefix + line)
        self.current = ""

    def text(self) -> str:
        self._end_line()
        collapsed: list[str] = []
        for line in self.lines:
            if not line.strip(" >") and collapsed and not collapsed[-1].strip(" >"):
                continue  # at most one blank line in a row
            collapsed.append(line)
        return "\n".join(collapsed).strip("\n")


def html_to_text(html: str) -> str:
    """Readable plain text from an HTML mail body."""
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:
        log.warning("HTML could not be fully read", exc_info=True)
    return parser.text()
