// withTimeout and TimeoutError are part of the client's API (its waits throw TimeoutError), so
// a client's users get them without importing Deadline themselves.
@_exported import Deadline
