// Debian's zlib1g-dev installs the header at /usr/include/zlib.h.
#include <zlib.h>
