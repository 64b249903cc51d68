export default ["packages/*", "docs/examples/*"]
