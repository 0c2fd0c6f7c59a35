# The repository stands alone: no tracked file refers to anything outside it (docs/architecture.md).
add_test(NAME repository_stands_alone
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/repo/standalone_check.sh ${PROJECT_SOURCE_DIR})
