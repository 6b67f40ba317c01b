// OpenSSL's libcrypto (Debian's libssl-dev): only the EVP digest calls ClipboardHistory
// hashes blobs with.
#include <openssl/evp.h>
