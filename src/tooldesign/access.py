"""What every widget of the course needs in the page to be usable by keyboard and screen reader.

ipywidgets draws radio buttons with no shared ``name`` and no group role, gives a slider's handle no
accessible name, and inside JupyterLab an arrow key pressed on a radio button moves the notebook to
the next cell (JupyterLab's command-mode shortcuts see the key first). ipywidgets cannot set DOM
attributes from Python, so each widget carries this small helper as an HTML child: a style (a
visible focus ring) and a handler installed once per page that

- gives each radio group ``role="radiogroup"``, one ``name`` and the accessible name of its
  question (the element named by the group's ``data-course-label`` id, or its description),
- moves the choice with the arrow keys (Home/End too) and keeps the key away from JupyterLab's
  notebook shortcuts, so focus stays on the answer,
- names every slider handle, toggle-button group, dropdown and text box after its visible label
  when it has no accessible name of its own,
- keeps Enter and Space on a focused button (a quiz's Check, a reveal) for the button: JupyterLab's
  command-mode shortcuts would otherwise take Enter to edit the cell.

The script runs from an image's ``onerror`` because an HTML widget's content is set as innerHTML,
which never runs a ``<script>``. This module only builds strings: ipywidgets stays in the
lessons' ``widgets.py`` modules.
"""

from __future__ import annotations

from html import escape
from typing import Any

from tooldesign import palette

MARK_CLASS = "course-access"  # the helper's own (invisible) HTML widget
QUIZ_CLASS = "course-quiz"  # a quiz's box: its radio groups answer arrow keys
GROUP_CLASS = "course-choice"  # any box holding one labelled radio group

_CSS = f"""
.jupyter-widgets :focus-visible, .jupyter-widgets input[type=radio]:focus,
.jupyter-widgets .noUi-handle:focus, .jupyter-widgets button:focus-visible {{
  outline: 3px solid {palette.FOCUS} !important; outline-offset: 2px !important;
}}
.jupyter-widgets.widget-html.{MARK_CLASS} {{ display: none !important; }}
"""

# Installed once per page (window.__courseAccess guards it); re-applied whenever widgets are drawn.
# The keydown listener captures on window, so it runs before JupyterLab's own, whichever phase that
# listens in. No // comments inside: the script is joined onto one line.
_JS = r"""
(function () {
  if (window.__courseAccess) { window.__courseAccess(); return; }
  const named = (e) => e.hasAttribute('aria-label') || e.hasAttribute('aria-labelledby');
  const labelOf = (e) => {
    const row = e.closest('.widget-inline-hbox, .widget-slider, .widget-toggle-buttons, .widget-radio, .widget-box');
    const label = row && row.querySelector('.widget-label');
    return label ? label.innerText.replace(/\u200b/g, '').trim() : '';
  };
  let groups = 0;
  const apply = () => {
    document.querySelectorAll('.widget-radio-box').forEach((box) => {
      if (!box.dataset.courseGroup) box.dataset.courseGroup = 'course-radio-' + (++groups);
      box.setAttribute('role', 'radiogroup');
      box.setAttribute('data-lm-suppress-shortcuts', 'true');
      const holder = box.closest('.GROUP');
      const title = holder && holder.querySelector('[data-course-label]');
      if (title && title.id) box.setAttribute('aria-labelledby', title.id);
      else if (!named(box) && labelOf(box)) box.setAttribute('aria-label', labelOf(box));
      box.querySelectorAll('input[type=radio]').forEach((r) => { r.name = box.dataset.courseGroup; });
    });
    document.querySelectorAll('.jupyter-widgets .noUi-handle, .widget-toggle-buttons, .widget-dropdown select,'
                              + ' .widget-text input, .widget-textarea textarea, .widget-checkbox input').forEach((e) => {
      if (!named(e) && labelOf(e)) e.setAttribute('aria-label', labelOf(e));
      if (e.classList.contains('widget-toggle-buttons')) e.setAttribute('role', 'group');
    });
    document.querySelectorAll('.jupyter-widgets button').forEach((b) => {
      b.setAttribute('data-lm-suppress-shortcuts', 'true');
    });
  };
  window.__courseAccess = apply;
  const keys = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, Home: 'first', End: 'last'};
  window.addEventListener('keydown', (event) => {
    const radio = event.target;
    if (!(radio instanceof HTMLInputElement) || radio.type !== 'radio' || !(event.key in keys)) return;
    const box = radio.closest('.widget-radio-box');
    if (!box || event.altKey || event.ctrlKey || event.metaKey) return;
    const all = Array.from(box.querySelectorAll('input[type=radio]')).filter((r) => !r.disabled);
    const at = all.indexOf(radio), step = keys[event.key];
    const next = step === 'first' ? all[0] : step === 'last' ? all[all.length - 1]
               : all[(at + step + all.length) % all.length];
    event.stopPropagation();
    event.preventDefault();
    if (next) { next.focus(); if (!next.checked) next.click(); }
  }, true);
  new MutationObserver(() => apply()).observe(document.body, {childList: true, subtree: true});
  apply();
})();
""".replace(".GROUP", "." + GROUP_CLASS)


def page_helpers_html() -> str:
    """The HTML of the helper widget: the focus-ring style and the once-per-page handler."""
    script = " ".join(line.strip() for line in _JS.strip().splitlines())
    return f"<style>{_CSS}</style><img src='data:,' aria-hidden='true' style='display:none' onerror=\"{escape(script)}\">"


def readout_html(text: str, style: str = "") -> str:
    """Preformatted text that wraps at spaces only: an identifier ("P20") is never split across lines.

    The page helpers ride along (after the text, invisible), so every widget with a readout gets
    the focus ring and the accessible names without a child widget of its own.
    """
    return (
        "<pre class='course-readout' style='white-space: pre-wrap; overflow-wrap: normal; "
        f"word-break: normal;{style}'>{escape(text)}</pre>" + page_helpers_html()
    )


def helper(widgets: Any) -> Any:
    """The helper as an HTML widget (``widgets`` is the ipywidgets module the caller imported)."""
    html = widgets.HTML(page_helpers_html())
    html.add_class(MARK_CLASS)
    return html
