// Formatters of a DelegateReport (report/delegate_report.h): text for people, JSON for
// programs (schema in docs/delegate_report.md), Graphviz DOT, and one self-contained
// HTML page (inline SVG and a small script for zoom and search; nothing fetched). Pure
// functions of the report.
#ifndef TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_FORMAT_H_
#define TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_FORMAT_H_

#include <map>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "report/delegate_report.h"

namespace tflite_inspect {

std::string FormatDelegateReportText(const DelegateReport& report);
nlohmann::json DelegateReportToJson(const DelegateReport& report);
std::string FormatDelegateReportDot(const DelegateReport& report);
std::string FormatDelegateReportHtml(const DelegateReport& report);

// Shared by the formatters.
// "graph input", "graph output", "CPU #41 PAD", "TestDelegate partition 1 (node 170)".
std::string DescribeEndpoint(const DelegateReport& report, const SubgraphReport& subgraph,
                             const Endpoint& endpoint);
// "float32[1,128,128,3]".
std::string DescribeTensorType(const BoundaryTensor& tensor);
// Bytes copied per inference on a graph edge carrying `tensor` from a node run by
// partition `from` to one run by partition `to` (-1: the CPU, a graph input or output);
// -1 when the edge does not cross a boundary.
long long EdgeCrossingBytes(const SubgraphReport& subgraph, int tensor, int from, int to);
// Constant-only producers (fp16 DEQUANTIZE, DENSIFY of weights; folded or delegated) are
// drawn as properties of the nodes that read them, not as nodes of their own (an fp16
// model would otherwise be mostly rows of DEQUANTIZE). True for such a node unless it
// writes a graph output (then it stays a node).
bool DrawnOnReaders(const SubgraphReport& subgraph, const NodeEntry& node);
// Reader node -> the constant-only nodes drawn on it.
std::map<int, std::vector<const NodeEntry*>> ConstantInputsByReader(const SubgraphReport& subgraph);
// "2 constants (DEQUANTIZE)" for a reader's label; "" for none.
std::string ConstantSummary(const std::vector<const NodeEntry*>& producers);
// Fill colour of a node run by delegate `index` (-1: the CPU), as #rrggbb.
const char* OwnerColour(int index);
// "applied", "failed to apply, running on the CPU: <error>", ...
std::string DescribeDelegateStatus(const DelegateEntry& delegate);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_REPORT_DELEGATE_REPORT_FORMAT_H_
