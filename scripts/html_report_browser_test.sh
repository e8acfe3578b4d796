#!/usr/bin/env bash
# delegate_report's HTML in a real browser: Debian's chromium, headless (scripts/setup.sh
# installs it). For each model the page is loaded with a checking script appended, which
# searches for an op and clicks "fit", and measures the drawn graph (node boxes that
# overlap, node labels that leave their box, edge labels on a node box or on each other,
# the graph's size); the page's DOM, dumped after the script ran, must say "ok". A screenshot of the
# page itself must be a real picture of the window's size (not blank).
# Usage: scripts/html_report_browser_test.sh BUILD_DIR   (a ctest test: build/CMakeLists)
set -euo pipefail
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
  echo "skipped: no chromium (scripts/setup.sh installs Debian's)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# model, op to search for, extra flags
cases=("$root/testdata/models/tiny_cnn_float.tflite|CONV_2D|")
shared="$root/../shared/models"
if [[ -d "$shared/mediapipe" ]]; then
  cases+=("$shared/mediapipe/pose_landmark_lite.tflite|DEPTHWISE_CONV_2D|--custom_ops=mediapipe")
  cases+=("$shared/zoo/mobilenet_v3_large_224_fp16.tflite|HARD_SWISH|")
  # Many small partitions: many red edges, each with its label.
  cases+=("$shared/mediapipe/face_detection_short_range.tflite|ADD|--test_delegate_ops=CONV_2D")
else
  echo "note: $shared absent: only the bundled model is checked"
fi

run_browser() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --user-data-dir="$tmp/profile" "$@" 2>"$tmp/browser.log"
}

# Reads width and height from a PNG's IHDR chunk.
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}

fail=0
for c in "${cases[@]}"; do
  IFS='|' read -r model op flags <<<"$c"
  name=$(basename "$model")
  # shellcheck disable=SC2086
  "$build/cmd/delegate_report" --graph="$model" $flags --html="$tmp/report.html" >/dev/null
  sed 's#</body>#<script src="check.js"></script></body>#' "$tmp/report.html" >"$tmp/check.html"
  cat >"$tmp/check.js" <<JS
(function(){
  var bad=[];
  var q=document.getElementById('q');
  q.value='${op}';q.dispatchEvent(new Event('input'));
  var hits=document.querySelectorAll('g.node.hit').length;
  if(hits===0)bad.push('search for ${op} matched no node');
  var fit=document.querySelector('button[data-z="0"]');
  if(!fit)bad.push('no fit button');else fit.click();
  document.querySelectorAll('.graph svg').forEach(function(svg,gi){
    var w=+svg.getAttribute('data-w'),h=+svg.getAttribute('data-h');
    if(w>4000)bad.push('graph '+gi+' is '+w+' px wide');
    if(+svg.getAttribute('width')>svg.parentNode.clientWidth+1)bad.push('graph '+gi+' wider than its box after fit');
    function cross(a,b){return a.x<b.x+b.width-1&&b.x<a.x+a.width-1&&a.y<b.y+b.height-1&&b.y<a.y+a.height-1;}
    var boxes=[];
    svg.querySelectorAll('g.node').forEach(function(g){
      var r=g.querySelector('rect').getBBox(),ts=g.querySelectorAll('text');
      boxes.push(r);
      ts.forEach(function(t){var b=t.getBBox();
        if(b.x<r.x-1||b.x+b.width>r.x+r.width+1||b.y<r.y-1||b.y+b.height>r.y+r.height+1)
          bad.push('label of '+g.querySelector('title').textContent+' leaves its box');});
      if(ts.length>1&&cross(ts[0].getBBox(),ts[1].getBBox()))
        bad.push('the constants badge covers the label of '+g.querySelector('title').textContent.split(':')[0]);
    });
    for(var i=0;i<boxes.length;i++)for(var j=i+1;j<boxes.length;j++)
      if(cross(boxes[i],boxes[j]))bad.push('graph '+gi+': node boxes '+i+' and '+j+' overlap');
    var labels=[];
    svg.querySelectorAll('text').forEach(function(t){
      if(t.closest('g.node')||t.closest('g'))return;
      var b=t.getBBox();
      boxes.forEach(function(r){if(cross(b,r))bad.push('edge label "'+t.textContent+'" over a node');});
      labels.forEach(function(o){if(cross(b,o.b))bad.push('edge labels "'+t.textContent+'" and "'+o.t+'" overlap');});
      labels.push({b:b,t:t.textContent});
    });
  });
  document.body.setAttribute('data-check',bad.length?bad.slice(0,5).join('; '):'ok');
  document.body.setAttribute('data-hits',hits);
})();
JS
  run_browser --virtual-time-budget=10000 --dump-dom "file://$tmp/check.html" >"$tmp/dom.html" || true
  check=$(grep -o 'data-check="[^"]*"' "$tmp/dom.html" | head -1 || true)
  if [[ "$check" != 'data-check="ok"' ]]; then
    echo "FAIL $name: ${check:-the checking script did not run ($(tail -2 "$tmp/browser.log" | tr '\n' ' '))}"
    fail=1
  else
    echo "ok   $name: $(grep -o 'data-hits="[0-9]*"' "$tmp/dom.html") for $op, no overlaps"
  fi
  run_browser --hide-scrollbars --window-size=1280,900 --screenshot="$tmp/shot.png" \
    "file://$tmp/report.html" >/dev/null || true
  if [[ ! -s "$tmp/shot.png" ]]; then
    echo "FAIL $name: no screenshot"
    fail=1
    continue
  fi
  size=$(png_size "$tmp/shot.png")
  bytes=$(stat -c %s "$tmp/shot.png")
  # A blank 1280x900 page compresses to a few KB; the report's tables and graph do not.
  if [[ "$size" != "1280 900" || "$bytes" -lt 20000 ]]; then
    echo "FAIL $name: screenshot $size, $bytes bytes"
    fail=1
  else
    echo "ok   $name: screenshot $size, $bytes bytes"
  fi
done
exit $fail
