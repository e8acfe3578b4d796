// The HTML form of a DelegateReport: one self-contained page (inline CSS, SVG and a small
// script for zoom and search; nothing fetched, no model text ever reaches the script but
// as escaped attribute values). Per subgraph: the plan as a coloured strip in run order,
// the graph laid out in layers (a node one layer below the deepest node it reads from;
// constant-only nodes are not drawn: their readers carry a "+N" badge and name them),
// and tables of partitions, CPU nodes with their reasons, and boundary tensors.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "report/delegate_report_format.h"
#include "util/strings.h"

namespace tflite_inspect {
namespace {

constexpr int kBoxW = 168, kBoxH = 26, kColW = 186, kRowH = 64, kMargin = 20;

std::string Html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string OwnerName(const DelegateReport& r, const SubgraphReport& sr, const NodeEntry& e) {
  if (e.partition < 0) return e.folded ? "CPU (folded)" : "CPU";
  const PartitionEntry& p = sr.partitions[e.partition];
  return fmt::format("{} partition {}", r.delegates[p.delegate].name, p.ordinal);
}

int OwnerDelegate(const SubgraphReport& sr, const NodeEntry& e) {
  return e.partition < 0 ? -1 : sr.partitions[e.partition].delegate;
}

std::string Tooltip(const DelegateReport& r, const SubgraphReport& sr, const NodeEntry& e) {
  std::string tip = fmt::format("#{} {} v{}: {}", e.node, e.op, e.version, OwnerName(r, sr, e));
  for (const NodeLeft& l : e.reasons) tip += "\n" + r.delegates[l.delegate].name + ": " + l.reason;
  return tip;
}

// The plan in run order, one cell per node.
void AppendStrip(const DelegateReport& r, const SubgraphReport& sr, std::string* out) {
  const int n = static_cast<int>(sr.nodes.size());
  const int cell = std::max(3, std::min(14, 960 / std::max(1, n)));
  *out +=
      fmt::format("<svg class=\"strip\" width=\"{}\" height=\"22\" role=\"img\">", cell * n + 2);
  for (int i = 0; i < n; ++i) {
    const NodeEntry& e = sr.nodes[i];
    *out += fmt::format(
        "<rect x=\"{}\" y=\"1\" width=\"{}\" height=\"20\" fill=\"{}\" "
        "stroke=\"#fff\" stroke-width=\"0.5\"><title>{}</title></rect>",
        1 + i * cell, cell, OwnerColour(OwnerDelegate(sr, e)), Html(Tooltip(r, sr, e)));
  }
  *out += "</svg>\n";
}

struct Layout {
  std::map<int, std::pair<int, int>> pos;              // node -> (x, y) of its box's top-left
  std::map<int, std::pair<int, int>> in_pos, out_pos;  // graph input / output tensor -> (x, y)
  int width = 0, height = 0;
};

Layout LayOut(const SubgraphReport& sr) {
  std::map<int, size_t> producer;  // tensor -> position in sr.nodes
  for (size_t i = 0; i < sr.nodes.size(); ++i) {
    for (int t : sr.nodes[i].outputs) producer[t] = i;
  }
  // Layer 0 holds the graph inputs; nodes start at layer 1.
  std::vector<int> layer(sr.nodes.size(), 1);
  for (size_t i = 0; i < sr.nodes.size(); ++i) {
    if (DrawnOnReaders(sr, sr.nodes[i])) continue;
    for (int t : sr.nodes[i].inputs) {
      auto p = producer.find(t);
      if (p != producer.end() && p->second < i && !DrawnOnReaders(sr, sr.nodes[p->second])) {
        layer[i] = std::max(layer[i], layer[p->second] + 1);
      }
    }
  }
  int max_layer = 1;
  for (int l : layer) max_layer = std::max(max_layer, l);
  std::map<int, std::vector<int>> rows;  // layer -> nodes, in run order
  for (size_t i = 0; i < sr.nodes.size(); ++i) {
    if (!DrawnOnReaders(sr, sr.nodes[i])) rows[layer[i]].push_back(sr.nodes[i].node);
  }
  size_t widest = std::max(sr.inputs.size(), sr.outputs.size());
  for (const auto& [l, nodes] : rows) widest = std::max(widest, nodes.size());
  Layout lay;
  lay.width = static_cast<int>(widest) * kColW + 2 * kMargin;
  auto x_of = [&](size_t slot, size_t count) {
    return kMargin + static_cast<int>(slot) * kColW + static_cast<int>(widest - count) * kColW / 2;
  };
  for (const auto& [l, nodes] : rows) {
    for (size_t s = 0; s < nodes.size(); ++s) {
      lay.pos[nodes[s]] = {x_of(s, nodes.size()), kMargin + l * kRowH};
    }
  }
  for (size_t s = 0; s < sr.inputs.size(); ++s) {
    lay.in_pos[sr.inputs[s]] = {x_of(s, sr.inputs.size()), kMargin};
  }
  for (size_t s = 0; s < sr.outputs.size(); ++s) {
    lay.out_pos[sr.outputs[s]] = {x_of(s, sr.outputs.size()), kMargin + (max_layer + 1) * kRowH};
  }
  lay.height = kMargin * 2 + (max_layer + 1) * kRowH + kBoxH;
  return lay;
}

struct Box {
  double x, y, w, h;
  bool Overlaps(const Box& o) const {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
};

// Where a crossing edge's label goes: the first point along the edge (its middle first,
// then nearer either end) where the label covers no node box, terminal and no label placed
// before; else just above the target's box, beside the labels already there. Labels are
// drawn after the boxes, so one placed on a box would hide the node.
class LabelPlacer {
 public:
  explicit LabelPlacer(const Layout& lay) {
    for (const auto& [n, xy] : lay.pos) taken_.push_back(Around(xy));
    for (const auto& [t, xy] : lay.in_pos) taken_.push_back(Around(xy));
    for (const auto& [t, xy] : lay.out_pos) taken_.push_back(Around(xy));
  }
  // The label's anchor (text-anchor middle, baseline) for the cubic edge from (x1, y1) to
  // (x2, y2) with both control points at height `mid`.
  std::pair<int, int> Place(int x1, int y1, int x2, int y2, int mid, size_t chars) {
    const double w = 7.0 * static_cast<double>(chars) + 6, h = 14;
    for (double t : {0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9}) {
      const double u = 1 - t;
      const double x = u * u * u * x1 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x2;
      const double y = u * u * u * y1 + 3 * u * u * t * mid + 3 * u * t * t * mid + t * t * t * y2;
      const Box b{x - w / 2, y - h / 2, w, h};
      if (Free(b)) return Take(b);
    }
    double x = x2 - w / 2;
    const double y = y2 - (kRowH - kBoxH) / 2.0 - h / 2;
    for (int tries = 0; tries < 64 && !Free({x, y, w, h}); ++tries) x += w / 2;
    return Take({x, y, w, h});
  }

 private:
  static Box Around(std::pair<int, int> xy) { return {xy.first - 2.0, xy.second - 2.0, kBoxW + 4.0, kBoxH + 4.0}; }
  bool Free(const Box& b) const {
    for (const Box& o : taken_) {
      if (b.Overlaps(o)) return false;
    }
    return true;
  }
  std::pair<int, int> Take(const Box& b) {
    taken_.push_back(b);
    return {static_cast<int>(b.x + b.w / 2), static_cast<int>(b.y + b.h / 2 + 4)};
  }
  std::vector<Box> taken_;
};

void AppendGraph(const DelegateReport& r, const SubgraphReport& sr, std::string* out) {
  const Layout lay = LayOut(sr);
  LabelPlacer placer(lay);
  *out += fmt::format(
      "<div class=\"graph\"><svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "data-w=\"{0}\" data-h=\"{1}\" font-family=\"sans-serif\" font-size=\"11\">\n",
      lay.width, lay.height);
  std::map<int, const NodeEntry*> producer;
  for (const NodeEntry& e : sr.nodes) {
    for (int t : e.outputs) producer[t] = &e;
  }
  std::string labels;  // drawn after every edge, so edges do not hide them
  auto edge = [&](std::pair<int, int> a, int from_owner, std::pair<int, int> b, int to_owner,
                  int t) {
    const int x1 = a.first + kBoxW / 2, y1 = a.second + kBoxH;
    const int x2 = b.first + kBoxW / 2, y2 = b.second;
    const int mid = (y1 + y2) / 2;
    const long long bytes = EdgeCrossingBytes(sr, t, from_owner, to_owner);
    const bool crosses = bytes >= 0;
    auto p = producer.find(t);
    const bool constant = p != producer.end() && p->second->folded;
    const char* style = crosses    ? "stroke=\"#d62828\" stroke-width=\"2\""
                        : constant ? "stroke=\"#bdbdbd\" stroke-dasharray=\"2,3\""
                                   : "stroke=\"#9e9e9e\"";
    *out += fmt::format("<path d=\"M{},{} C{},{} {},{} {},{}\" fill=\"none\" {}/>\n", x1, y1, x1,
                        mid, x2, mid, x2, y2, style);
    if (crosses) {
      const std::string text = fmt::format("t{}: {} B", t, bytes);
      const auto [lx, ly] = placer.Place(x1, y1, x2, y2, mid, text.size());
      labels += fmt::format(
          "<text x=\"{}\" y=\"{}\" fill=\"#d62828\" stroke=\"#fff\" stroke-width=\"3\" "
          "paint-order=\"stroke\" text-anchor=\"middle\">{}</text>\n",
          lx, ly, text);
    }
  };
  const std::set<int> graph_inputs(sr.inputs.begin(), sr.inputs.end());
  for (const NodeEntry& e : sr.nodes) {
    if (DrawnOnReaders(sr, e)) continue;
    std::set<int> seen;
    for (int t : e.inputs) {
      if (t < 0 || !seen.insert(t).second) continue;
      if (auto p = producer.find(t); p != producer.end()) {
        if (DrawnOnReaders(sr, *p->second)) continue;  // a property of this node (its badge)
        edge(lay.pos.at(p->second->node), p->second->partition, lay.pos.at(e.node), e.partition, t);
      } else if (graph_inputs.count(t)) {
        edge(lay.in_pos.at(t), -1, lay.pos.at(e.node), e.partition, t);
      }
    }
  }
  for (int t : sr.outputs) {
    if (auto p = producer.find(t); p != producer.end() && !DrawnOnReaders(sr, *p->second)) {
      edge(lay.pos.at(p->second->node), p->second->partition, lay.out_pos.at(t), -1, t);
    }
  }
  const auto folded_inputs = ConstantInputsByReader(sr);
  for (const NodeEntry& e : sr.nodes) {
    if (DrawnOnReaders(sr, e)) continue;
    const auto [x, y] = lay.pos.at(e.node);
    std::string label = fmt::format("#{} {}", e.node, e.op);
    std::string tip = Tooltip(r, sr, e), badge;
    if (auto f = folded_inputs.find(e.node); f != folded_inputs.end()) {
      tip += "\n+ " + ConstantSummary(f->second) + ":";
      for (const NodeEntry* c : f->second) tip += fmt::format(" #{} {}", c->node, c->op);
      badge = fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"9\" "
                          "fill=\"#616161\">+{}</text>",
                          x + kBoxW - 4, y + 10, f->second.size());
    }
    // The label centred in the box, or, beside a "+N" badge, in the box left of it; cut
    // to what fits (about 7 px a character at 11 px).
    const size_t fits = badge.empty() ? 23 : 19;
    const int label_x = badge.empty() ? x + kBoxW / 2 : x + (kBoxW - 20) / 2;
    if (label.size() > fits) label = label.substr(0, fits - 1) + "…";
    // data-search: what the page's search box matches (lower case).
    std::string search = ToLower(tip);
    *out += fmt::format(
        "<g class=\"node\" data-search=\"{}\"><title>{}</title><rect x=\"{}\" y=\"{}\" "
        "width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{}\" stroke=\"#424242\"/><text x=\"{}\" "
        "y=\"{}\" text-anchor=\"middle\">{}</text>{}</g>\n",
        Html(search), Html(tip), x, y, kBoxW, kBoxH, OwnerColour(OwnerDelegate(sr, e)),
        label_x, y + 17, Html(label), badge);
  }
  auto terminal = [&](const std::map<int, std::pair<int, int>>& where, const char* what) {
    for (const auto& [t, xy] : where) {
      *out += fmt::format(
          "<g><title>{} tensor {}</title><ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" "
          "ry=\"{}\" fill=\"#fff\" stroke=\"#424242\"/><text x=\"{}\" y=\"{}\" "
          "text-anchor=\"middle\">{} t{}</text></g>\n",
          what, t, xy.first + kBoxW / 2, xy.second + kBoxH / 2, kBoxW / 2, kBoxH / 2,
          xy.first + kBoxW / 2, xy.second + 17, what, t);
    }
  };
  terminal(lay.in_pos, "input");
  terminal(lay.out_pos, "output");
  *out += labels + "</svg></div>\n";
}

void AppendTables(const DelegateReport& r, const SubgraphReport& sr, std::string* out) {
  if (!sr.partitions.empty()) {
    *out +=
        "<h3>Partitions</h3><table><tr><th>delegate</th><th>partition</th><th>DELEGATE "
        "node</th><th>nodes</th><th>bytes in</th><th>bytes out</th></tr>\n";
    for (const PartitionEntry& p : sr.partitions) {
      std::string nodes;
      for (int n : p.nodes) {
        const NodeEntry* e = sr.FindNode(n);
        nodes += fmt::format("{}#{} {} v{}", nodes.empty() ? "" : ", ", n, e ? e->op : "?",
                             e ? e->version : 0);
      }
      *out += fmt::format(
          "<tr><td><span class=\"sw\" style=\"background:{}\"></span>{}</td>"
          "<td>{}</td><td>{}</td><td>{}: {}</td><td>{}</td><td>{}</td></tr>\n",
          OwnerColour(p.delegate), Html(r.delegates[p.delegate].name), p.ordinal, p.kernel_node,
          p.nodes.size(), Html(nodes), p.bytes_in, p.bytes_out);
    }
    *out += "</table>\n";
  }
  for (const DelegateInSubgraph& d : sr.delegates) {
    const std::string& name = r.delegates[d.delegate].name;
    if (!d.live) {
      *out += fmt::format("<p class=\"fail\">{}: {}, running on the CPU: {}</p>\n", Html(name),
                          d.status == kTfLiteApplicationError ? "not applied" : "failed to apply",
                          Html(d.error));
      continue;
    }
    if (!d.limits.empty())
      *out += fmt::format("<p>{} limits: {}</p>\n", Html(name), Html(d.limits));
    for (const auto& dp : d.dropped) {
      std::string nodes;
      for (int n : dp.nodes) nodes += (nodes.empty() ? "#" : ", #") + std::to_string(n);
      *out += fmt::format("<p>{} dropped a partition ({}): {}</p>\n", Html(name), Html(nodes),
                          Html(dp.reason));
    }
  }
  *out += fmt::format(
      "<h3>CPU nodes ({})</h3><table><tr><th>node</th><th>op</th><th>version</th>"
      "<th>folded</th><th>why not delegated</th></tr>\n",
      sr.cpu_nodes);
  for (const NodeEntry& e : sr.nodes) {
    if (e.partition >= 0) continue;
    std::string why;
    for (const NodeLeft& l : e.reasons) {
      why += fmt::format("{}{}: {}", why.empty() ? "" : "<br>", Html(r.delegates[l.delegate].name),
                         Html(l.reason));
    }
    *out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        e.node, Html(e.op), e.version, e.folded ? "yes" : "", why);
  }
  *out += "</table>\n";
  *out += fmt::format(
      "<h3>Boundary tensors ({} bytes per inference)</h3><table><tr><th>tensor</th>"
      "<th>name</th><th>type</th><th>bytes</th><th>from</th><th>to</th></tr>\n",
      sr.boundary_bytes);
  for (const BoundaryTensor& b : sr.boundary) {
    std::string peers;
    for (const Endpoint& e : b.peers)
      peers += (peers.empty() ? "" : ", ") + DescribeEndpoint(r, sr, e);
    const std::string part = DescribeEndpoint(r, sr, {Endpoint::kPartition, b.partition});
    *out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td></tr>\n", b.tensor,
        Html(b.name), Html(DescribeTensorType(b)), b.bytes, b.dynamic ? " (dynamic)" : "",
        Html(b.into ? peers : part), Html(b.into ? part : peers));
  }
  *out += "</table>\n";
}

// Zoom (buttons), pan (drag) and search (highlights the nodes whose op, number, owner,
// reasons or folded constants match). Reads only the page's own escaped attributes.
constexpr const char* kScript = R"(<script>
(function(){
  var q=document.getElementById('q'),hits=document.getElementById('hits');
  q.addEventListener('input',function(){
    var s=q.value.trim().toLowerCase(),n=0,first=null;
    document.querySelectorAll('g.node').forEach(function(g){
      var m=s!==''&&g.getAttribute('data-search').indexOf(s)>=0;
      g.classList.toggle('hit',m);g.classList.toggle('dim',s!==''&&!m);
      if(m){n++;if(!first)first=g;}
    });
    hits.textContent=s?n+(n==1?' match':' matches'):'';
    if(first)first.scrollIntoView({block:'center',inline:'center'});
  });
  document.querySelectorAll('button[data-z]').forEach(function(b){
    b.addEventListener('click',function(){
      var z=parseFloat(b.getAttribute('data-z'));
      document.querySelectorAll('.graph svg').forEach(function(svg){
        var w=+svg.getAttribute('data-w'),h=+svg.getAttribute('data-h');
        var k=z?(+svg.getAttribute('data-k')||1)*z:Math.min(1,svg.parentNode.clientWidth/w);
        svg.setAttribute('data-k',k);svg.setAttribute('width',w*k);svg.setAttribute('height',h*k);
      });
    });
  });
  document.querySelectorAll('.graph').forEach(function(d){
    var x=0,y=0,l=0,t=0,down=false;
    d.addEventListener('mousedown',function(e){down=true;x=e.clientX;y=e.clientY;l=d.scrollLeft;t=d.scrollTop;});
    window.addEventListener('mouseup',function(){down=false;});
    d.addEventListener('mousemove',function(e){if(down){d.scrollLeft=l-(e.clientX-x);d.scrollTop=t-(e.clientY-y);}});
  });
})();
</script>
)";

constexpr const char* kStyle = R"(<style>
body{font-family:sans-serif;margin:24px;color:#212121}
table{border-collapse:collapse;margin:8px 0 16px}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top;font-size:13px}
th{background:#f5f5f5}
.sw{display:inline-block;width:12px;height:12px;margin-right:6px;border:1px solid #999;vertical-align:middle}
.graph{overflow:auto;max-height:900px;border:1px solid #ddd;margin:8px 0;cursor:grab}
.tools{position:sticky;top:0;background:#fff;padding:6px 0;z-index:1}
.node.hit rect{stroke:#d62828;stroke-width:3}
.node.dim{opacity:.35}
.fail{color:#b71c1c}
.summary{font-weight:bold}
</style>
)";

}  // namespace

std::string FormatDelegateReportHtml(const DelegateReport& r) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out +=
      fmt::format("<title>delegate_report: {}</title>\n{}</head><body>\n", Html(r.model), kStyle);
  out += fmt::format("<h1>delegate_report</h1><p>model: <code>{}</code></p>\n", Html(r.model));
  out += fmt::format("<p class=\"summary\">{}</p>\n", Html(r.summary));
  out += "<table><tr><th>delegate (in the order applied)</th><th>status</th></tr>\n";
  out += fmt::format(
      "<tr><td><span class=\"sw\" style=\"background:{}\"></span>CPU</td><td>"
      "</td></tr>\n",
      OwnerColour(-1));
  for (size_t i = 0; i < r.delegates.size(); ++i) {
    out += fmt::format(
        "<tr><td><span class=\"sw\" style=\"background:{}\"></span>{}</td><td>{}"
        "</td></tr>\n",
        OwnerColour(static_cast<int>(i)),
        Html(r.delegates[i].name + (r.delegates[i].label != r.delegates[i].name
                                        ? " [" + r.delegates[i].label + "]"
                                        : "")),
        Html(DescribeDelegateStatus(r.delegates[i])));
  }
  out +=
      "</table>\n<p>Red edges cross a CPU&harr;delegate boundary (labelled with the tensor "
      "and its bytes, copied on every inference). Nodes computed from constants only (fp16 "
      "DEQUANTIZE, DENSIFY of weights) are not drawn: a \"+N\" badge on the node that reads "
      "them counts them. Hover a node for its owner, the reasons it stayed on the CPU and its "
      "constant inputs; drag a graph to pan.</p>\n"
      "<div class=\"tools\">search <input id=\"q\" type=\"search\" size=\"32\" "
      "placeholder=\"op, #node, delegate, reason\"> <span id=\"hits\"></span> &nbsp; zoom "
      "<button data-z=\"1.25\">+</button><button data-z=\"0.8\">&minus;</button>"
      "<button data-z=\"0\">fit</button></div>\n";
  for (const SubgraphReport& sr : r.subgraphs) {
    out += fmt::format("<h2>Subgraph {}{}</h2>\n<p class=\"summary\">{}</p>\n", sr.index,
                       sr.name.empty() ? "" : " (" + Html(sr.name) + ")", Html(sr.summary));
    out += "<h3>Plan, in run order</h3>\n";
    AppendStrip(r, sr, &out);
    out += "<h3>Graph</h3>\n";
    AppendGraph(r, sr, &out);
    AppendTables(r, sr, &out);
  }
  out += kScript;
  out += "</body></html>\n";
  return out;
}

}  // namespace tflite_inspect
