// shapevm: re-runs the shape programs of 1990s 3D engines (tools/cli.cpp has the commands).
#include "tools/command.h"

int main(int argc, char** argv) {
  return shapevm::tools::run_shapevm(argc, argv);
}
