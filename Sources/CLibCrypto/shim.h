// OpenSSL's libcrypto (Debian's libssl-dev): only its SHA-256 functions, which ClipboardHistory
// hashes blobs with. The low-level calls, deprecated in OpenSSL 3 in favour of EVP: linked
// statically, EVP's digest calls bring the provider machinery (3.2 MB of `ferry`), these the
// SHA-256 code alone (24 kB), the same assembly either way (docs/PERFORMANCE.md, "Size").
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
