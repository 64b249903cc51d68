/** The HTML maps' page code (src/render/map/page.js), checked to stay inside its `<script>` element. */
export declare const mapPageSource: () => string
