// Debian's libutf8proc-dev installs the header at /usr/include/utf8proc.h.
#include <utf8proc.h>
