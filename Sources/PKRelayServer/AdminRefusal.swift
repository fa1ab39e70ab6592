import AdminAPI

/// Why an admin request was refused before its operation ran (a path id or a body that does not
/// read), as the answer to send.
struct AdminRefusal: Error {
    let response: AdminResponse
}
