"""What the generated two-stage tables share (generate_width_table.py,
generate_grapheme_table.py): stage 2 as a Swift multi-line string literal."""


def stage2_literal(digits, chunk=2048):
    """The lines of a multi-line literal holding `digits`, `chunk` to a line;
    a backslash at each line's end joins the lines, so the string has none."""
    pieces = ["        " + digits[i:i + chunk] for i in range(0, len(digits), chunk)]
    return ['        """'] + [piece + "\\" for piece in pieces[:-1]] + pieces[-1:] + ['        """']
