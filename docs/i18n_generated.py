"""MkDocs hook: let mkdocs-static-i18n see the pages that mkdocs-gen-files writes.

mkdocs-static-i18n (1.3) only localizes files whose source lies under ``docs_dir``; the pages
that ``docs/gen_pages.py`` writes through mkdocs-gen-files live in a temporary directory, so the
plugin would drop them with "Unhandled file case" (ultrabug/mkdocs-static-i18n#263). Before the
i18n plugin sorts the files (its ``on_files`` runs at priority -100), this hook keeps each
generated page's text and hands the plugin a file at the same place under ``docs_dir``; once the
plugin has chosen the current language's files, the hook gives them their generated text back
(``on_nav``, which comes after every ``on_files`` and before any page is read).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation

_GENERATED: dict[str, bytes] = {}


@event_priority(-90)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Swap every generated file for a plain file under docs_dir, keeping its content aside."""
    _GENERATED.clear()
    result = []
    for file in files:
        if getattr(file, "generated_by", None) == "mkdocs-gen-files":
            _GENERATED[file.src_uri] = file.content_bytes
            file = File(
                file.src_uri,
                config.docs_dir,
                config.site_dir,
                config.use_directory_urls,
                inclusion=file.inclusion,
            )
        result.append(file)
    return Files(result)


@event_priority(-110)
def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Give the files the i18n plugin kept their generated content back."""
    for file in files:
        content = _GENERATED.get(file.src_uri)
        if content is not None:
            file.content_bytes = content
    return nav
