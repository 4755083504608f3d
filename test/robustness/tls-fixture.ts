/**
 * A self-signed certificate for `localhost`, `*.localhost` and 127.0.0.1 (valid until 2126), made
 * once with openssl for tests of TLS handling. The key protects nothing: it exists only here.
 */
export const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBwTCCAWagAwIBAgIUDYA79jX2INRJTcKYu4eeOoDPyn8wCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVdGFjay10ZXN0LXNlbGYtc2lnbmVkMCAXDTI2MTEyMTA2MDEz
M1oYDzIxMjYxMDI4MDYwMTMzWjAgMR4wHAYDVQQDDBV0YWNrLXRlc3Qtc2VsZi1z
aWduZWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAT6FcmhdY7zZ/4EfXx1z45M
fSaWf4WuAKZtqf9kMpFz/+7QchSlJq5+w27h+nqmGJRJbfjujvos80vJjKXSfm/C
o3wwejAdBgNVHQ4EFgQUgaYB5ObpN2OhJQvAydMhMbAxIXcwHwYDVR0jBBgwFoAU
gaYB5ObpN2OhJQvAydMhMbAxIXcwDwYDVR0TAQH/BAUwAwEB/zAnBgNVHREEIDAe
gglsb2NhbGhvc3SCCyoubG9jYWxob3N0hwR/AAABMAoGCCqGSM49BAMCA0kAMEYC
IQCugKNl5gi/ihncI9wUN5NPv7D3x2YU91IMLQcR4X8axgIhAJeFSj+cVVqXgiJ0
ybKM1EIvYASljjvzy5a2dF9XLxYy
-----END CERTIFICATE-----
`;

export const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgU/xPWdcLKHyLFWdK
LVsBueyMznkZR44Cp6/qtLQROsyhRANCAAT6FcmhdY7zZ/4EfXx1z45MfSaWf4Wu
AKZtqf9kMpFz/+7QchSlJq5+w27h+nqmGJRJbfjujvos80vJjKXSfm/C
-----END PRIVATE KEY-----
`;
