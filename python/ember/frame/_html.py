"""The HTML repr of a DataFrame (Jupyter's): pandas' table of the rows
shown, with its '...' row and its 'N rows x M columns' line when the frame
is cut. A Series has none, as in pandas (Jupyter shows its text)."""
import html as _html


def html(obj):
    from ember.frame._repr import _EDGE, _have_pandas, _shown
    if obj.ndim == 1:
        return None
    if not _have_pandas():
        return "<pre>" + _html.escape(repr(obj)) + "</pre>"
    part, cut = _shown(obj)
    text = part.to_pandas()._repr_html_()
    if not cut:
        return text
    rows = text.split("    <tr>\n")
    # rows[0] is the head up to the first body row; pandas puts '...' after
    # the fifth row and counts the frame's rows below the table
    ncols = len(obj._cols)
    dots = "    <tr>\n      <th>...</th>\n" + "      <td>...</td>\n" * ncols + "    </tr>\n"
    head_rows = 1 + _EDGE
    text = "    <tr>\n".join(rows[:head_rows]) + dots + "    <tr>\n" + \
        "    <tr>\n".join(rows[head_rows:])
    return text.replace("</table>\n", f"</table>\n<p>{len(obj)} rows \u00d7 {ncols} "
                        "columns</p>\n", 1)
