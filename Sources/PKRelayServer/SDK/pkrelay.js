// PKRelay web SDK: see docs/SDK.md.
export const version = "0.0.0";
