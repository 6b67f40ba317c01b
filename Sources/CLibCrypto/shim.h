// OpenSSL's libcrypto (Debian's libssl-dev): only the EVP digest calls ClipboardHistory
// hashes blobs with, and the library's set-up (OPENSSL_init_crypto).
#include <openssl/crypto.h>
#include <openssl/evp.h>
