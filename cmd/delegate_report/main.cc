#include "delegate_report/delegate_report_main.h"

int main(int argc, char** argv) { return tflite_inspect::DelegateReportMain(argc, argv); }
