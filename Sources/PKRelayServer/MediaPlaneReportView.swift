import MediaPlane

/// The parts of a media report the control plane reads when watching forwards.
struct MediaPlaneReportView {
    let report: MediaPlaneReport

    func keyframeDeliveredAt(sink: UInt32) -> Int64? { report.sinks[sink]?.keyframeDeliveredAtMs }
}
